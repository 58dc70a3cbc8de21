"""The ordinary hand of progressive Pineapple and its kin, street by street: what each play
of the cards just dealt is worth (``advise``), a whole hand graded decision by decision
(``review``), and the trainer that deals one (``session``)."""
