"""Two bots over duplicate deals (``optimizer.opponents.head_to_head``): the deals, the
settlement by the variant's scoring, the seeds, and the command that prints the result."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from fantasyland.cli.main import app
from fantasyland.evaluator import find_rules, parse_cards
from fantasyland.evaluator.board import evaluate_board
from fantasyland.evaluator.scoring import settle
from fantasyland.optimizer.opponents.bot import THREE_KEEP_TWO, BotParams
from fantasyland.optimizer.opponents.errors import OpponentModelError
from fantasyland.optimizer.opponents.layout import EMPTY
from fantasyland.optimizer.opponents.head_to_head import (PLAY, STEP, bot_directory, chunk_path,
                                            deal_seats, head_to_head, in_turn, pair_directory,
                                            play_games, play_seats, saved_head_to_head, score)
from fantasyland.optimizer.opponents.pools import STRONG_PARAMS
from tests.lab import run

runner = CliRunner()
PINEAPPLE = find_rules("pineapple")
#: Cheap bots: the harness is under test, not their skill.
QUICK = BotParams(samples=4, refine=0)
QUICK_STRONG = dataclasses.replace(STRONG_PARAMS[THREE_KEEP_TWO.name], samples=4, refine=0)

IVEY = "6s 6c 4h Td Ts 9c Qs 8c 3h 3d 3s 2h 2d"
HELLMUTH = "Ah Kd Qd 9h 9d 5h 5d 4c Ks Js 9s 8s 7s"
#: Queens on top: enters Fantasyland (14 cards in pineapple).
QUEENS = "Qs Qh 2c Kd Kc 7s 7d 3c Ah Ad As 5c 5d"
FOULED = "Ac Ad 2s 8s 8h 6c 5d 4c Kh Th 7h 2h 3c"  # aces on top over a pair of eights


def _boards(*boards: str) -> np.ndarray:
    return np.array([parse_cards(b) for b in boards]).reshape(-1, 2, 13)


def test_the_two_seats_of_a_deal_share_one_deck_and_are_seeded():
    seats = deal_seats(PINEAPPLE, THREE_KEEP_TWO, 4, 0)
    assert seats.shape == (2, 17) and len(set(seats.ravel().tolist())) == 34
    assert (seats == deal_seats(PINEAPPLE, THREE_KEEP_TWO, 4, 0)).all()
    assert not (seats == deal_seats(PINEAPPLE, THREE_KEEP_TWO, 4, 1)).all()


def test_a_game_is_settled_by_the_variants_scoring_from_both_seats():
    # The challenger made Ivey's board from both seats, the incumbent Hellmuth's: each game
    # sets the challenger's seat against the incumbent's other seat, and Ivey wins both.
    result = score(PINEAPPLE, _boards(IVEY, IVEY), _boards(HELLMUTH, HELLMUTH))
    ivey = evaluate_board(IVEY, rules="pineapple")
    hellmuth = evaluate_board(HELLMUTH, rules="pineapple")
    assert settle(ivey, hellmuth) == 4  # docs/rules.md, "Scoring"
    assert result.points == pytest.approx(4) and result.points_se == 0
    assert result.points_with_entries == result.points  # no one enters Fantasyland
    # Seat A against seat B: the same two boards from the other seats change sides.
    swapped = score(PINEAPPLE, _boards(IVEY, HELLMUTH), _boards(IVEY, HELLMUTH))
    assert swapped.points == pytest.approx((4 - 4) / 2)


def test_the_same_boards_on_both_sides_are_an_even_match():
    boards = _boards(IVEY, HELLMUTH, QUEENS, FOULED)
    result = score(PINEAPPLE, boards, boards)
    assert result.points == 0 and result.points_with_entries == 0


def test_an_entry_is_credited_at_its_worth_and_a_foul_pays_six_and_royalties():
    result = score(PINEAPPLE, _boards(QUEENS, QUEENS), _boards(FOULED, FOULED))
    queens = evaluate_board(QUEENS, rules="pineapple")
    assert evaluate_board(FOULED, rules="pineapple").fouled
    assert result.points == pytest.approx(6 + queens.royalties.total)
    assert result.points_with_entries == pytest.approx(6 + queens.royalties.total + 12.5)
    assert result.challenger.fantasyland_rate == 1 and result.incumbent.foul_rate == 1
    assert result.incumbent.mean_royalties == 0  # a foul counts as no royalties


def test_the_difference_of_two_bots_figures_is_paired_deal_by_deal():
    # Deal 0: the challenger enters Fantasyland from both seats, the incumbent fouls both;
    # deal 1: each plays Ivey's board from seat A and fouls from seat B.
    result = score(PINEAPPLE, _boards(QUEENS, QUEENS, IVEY, FOULED),
                   _boards(FOULED, FOULED, IVEY, FOULED))
    queens = evaluate_board(QUEENS, rules="pineapple").royalties.total
    difference = result.difference
    assert difference.hands == result.deals == 2
    assert difference.foul_rate == pytest.approx((-1 + 0) / 2)
    assert difference.fantasyland_rate == pytest.approx(
        result.challenger.fantasyland_rate - result.incumbent.fantasyland_rate)
    assert difference.mean_royalties == pytest.approx((queens + 0) / 2)
    # over deals, not hands: two deals that differ by 1 and by 0 have a spread of 0.5
    assert difference.foul_rate_se == pytest.approx(np.std([-1, 0], ddof=1) / np.sqrt(2))


def test_a_bot_plays_the_same_seats_however_the_deals_are_split():
    whole = play_seats(PINEAPPLE, THREE_KEEP_TWO, QUICK, 3, 0, 3)
    parts = np.concatenate([play_seats(PINEAPPLE, THREE_KEEP_TWO, QUICK, 3, 0, 1),
                            play_seats(PINEAPPLE, THREE_KEEP_TWO, QUICK, 3, 1, 3)])
    assert (whole == parts).all()
    for deal, seats in enumerate(whole):
        for seat, board in enumerate(seats):
            assert set(board.tolist()) <= set(deal_seats(PINEAPPLE, THREE_KEEP_TWO, 3,
                                                         deal)[seat].tolist())
    # generators of its own (another stream) play other hands: the shared ones are shared
    other = play_seats(PINEAPPLE, THREE_KEEP_TWO, QUICK, 3, 0, 3, stream=PLAY + 1)
    assert not (other == whole).all()


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_no_seat_plays_on_the_generator_that_dealt_its_cards(seed):
    # numpy reads a seed's trailing zeros as nothing: (seed, deal, 0, 0) is (seed, deal)
    for deal in range(3):
        dealt = np.random.default_rng([seed, deal]).integers(1 << 62, size=4)
        for seat in range(2):
            played = np.random.default_rng([seed, deal, seat, PLAY]).integers(1 << 62, size=4)
            assert not (played == dealt).all()
    assert PLAY != 0


def test_a_bot_against_itself_ties_every_deal_exactly():
    # The same cards and the same generators from both seats: each game is the other's
    # mirror, so the points cancel deal by deal, not just on average.
    result = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK, QUICK, 4, seed=5)
    assert result.points == 0 and result.points_se == 0
    assert result.points_with_entries == 0 and result.challenger == result.incumbent


def test_a_small_head_to_head_is_deterministic_for_its_seed():
    first = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 3, seed=2)
    again = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 3, seed=2)
    assert first == again and first.games == 6 and first.challenger.hands == 6
    assert np.isfinite(first.points) and first.points_se >= 0
    with pytest.raises(ValueError, match="need deals >= 1, got 0"):
        head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 0, seed=2)


def test_ranges_of_deals_saved_in_chunks_add_up_to_one_run(tmp_path):
    # deal i is the same whatever the range: two runs over halves, saved, are the whole run
    whole = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, STEP + 2, seed=4)
    head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, STEP + 1, seed=4,
                 directory=tmp_path)
    head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 1, seed=4, first=STEP + 1,
                 directory=tmp_path)
    for params in (QUICK_STRONG, QUICK):
        assert sorted(p.name for p in bot_directory(tmp_path, PINEAPPLE, params).iterdir()) \
            == [f"seed4-deals0-{STEP}.npz", f"seed4-deals{STEP}-{STEP + 1}.npz",
                f"seed4-deals{STEP + 1}-{STEP + 2}.npz"]
    assert len(list(tmp_path.iterdir())) == 2
    saved, ranges = saved_head_to_head(PINEAPPLE, QUICK_STRONG, QUICK, 4, tmp_path)
    assert saved == whole and ranges == [(0, STEP + 2)]


def test_a_bots_saved_boards_serve_every_run_that_plays_it(tmp_path):
    first = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 2, seed=6,
                         directory=tmp_path)
    paths = [chunk_path(bot_directory(tmp_path, PINEAPPLE, params), 6, 0, 2)
             for params in (QUICK_STRONG, QUICK)]
    stamps = [path.stat().st_mtime_ns for path in paths]
    assert head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 2, seed=6,
                        directory=tmp_path) == first
    # the incumbent's boards, read for another challenger: here itself, which ties exactly
    alike = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK, QUICK, 2, seed=6,
                         directory=tmp_path)
    assert alike.points == 0 and alike.challenger == first.incumbent
    assert [path.stat().st_mtime_ns for path in paths] == stamps  # read, not played again
    assert len(list(tmp_path.iterdir())) == 2
    # seats swapped: the same boards scored the other way round
    swapped = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK, QUICK_STRONG, 2, seed=6,
                           directory=tmp_path)
    assert swapped.points == -first.points and swapped.challenger == first.incumbent
    assert [path.stat().st_mtime_ns for path in paths] == stamps
    with pytest.raises(OpponentModelError, match="no deals of seed 7 saved"):
        saved_head_to_head(PINEAPPLE, QUICK_STRONG, QUICK, 7, tmp_path)
    # a chunk in a bot's folder that another bot played is refused, not read
    paths[0].write_bytes(paths[1].read_bytes())
    with pytest.raises(OpponentModelError, match="holds deals played otherwise"):
        saved_head_to_head(PINEAPPLE, QUICK_STRONG, QUICK, 6, tmp_path)


def _legacy_chunk(directory, challenger: dict, incumbent: dict, boards) -> None:
    """A chunk of deals 0..2 of seed 6 as runs saved it before each bot's boards were kept
    apart: both bots' boards in one file, named by the deals alone."""
    meta = json.dumps({"rules": PINEAPPLE.name, "challenger": challenger,
                       "incumbent": incumbent}, sort_keys=True)
    np.savez(chunk_path(directory, 6, 0, 2), challenger=boards[0], incumbent=boards[1],
             meta=np.array(meta))


def test_a_run_saved_before_the_bots_were_kept_apart_is_scored_as_it_was(tmp_path):
    first = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 2, seed=6)
    boards = [play_seats(PINEAPPLE, THREE_KEEP_TWO, params, 6, 0, 2)
              for params in (QUICK_STRONG, QUICK)]
    explicit_strong = dataclasses.asdict(dataclasses.replace(
        QUICK_STRONG, table_refine=QUICK_STRONG.rescored,
        estimate_foul_penalty=QUICK_STRONG.estimate_foul_cost))
    # saved before estimate_disjoint and sees_boards existed: read at their defaults
    older = {bot: {k: v for k, v in params.items()
                   if k not in ("estimate_disjoint", "sees_boards")}
             for bot, params in (("challenger", explicit_strong),
                                 ("incumbent", dataclasses.asdict(QUICK)))}
    _legacy_chunk(tmp_path, older["challenger"], older["incumbent"], boards)
    saved, ranges = saved_head_to_head(PINEAPPLE, QUICK_STRONG, QUICK, 6, tmp_path)
    assert saved == first and ranges == [(0, 2)]
    # a knob deleted since, recorded at the value that played as today: today's bot; at
    # another value: a bot that no longer exists, refused naming the knob
    for value, readable in ((False, True), (True, False)):
        with_retired = {bot: params | {"search_rejudge": value} for bot, params in older.items()}
        _legacy_chunk(tmp_path, with_retired["challenger"], with_retired["incumbent"], boards)
        if readable:
            assert saved_head_to_head(PINEAPPLE, QUICK_STRONG, QUICK, 6, tmp_path)[0] == first
        else:
            with pytest.raises(OpponentModelError, match="search_rejudge"):
                saved_head_to_head(PINEAPPLE, QUICK_STRONG, QUICK, 6, tmp_path)


def test_a_chunk_of_the_stronger_bot_s_old_defaults_is_refused(tmp_path):
    # Before its defaults became 4 placements and a foul at 6, the stronger bot's None meant
    # 8 and 10: a chunk that records None was played by that bot, not by today's.
    boards = np.zeros((2, 2, 2, 13), dtype=np.int64)
    _legacy_chunk(tmp_path, dataclasses.asdict(QUICK_STRONG), dataclasses.asdict(QUICK),
                  boards)
    with pytest.raises(OpponentModelError, match="holds deals played otherwise"):
        saved_head_to_head(PINEAPPLE, QUICK_STRONG, QUICK, 6, tmp_path)


def test_a_chunk_saved_before_a_knob_was_added_resumes_at_its_default(tmp_path):
    # A bot's chunk saved before estimate_disjoint existed lacks it: it was played at the
    # default that plays as before, so today's bot reads it, and its folder is the same
    first = head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 2, seed=6,
                         directory=tmp_path)
    path = chunk_path(bot_directory(tmp_path, PINEAPPLE, QUICK_STRONG), 6, 0, 2)
    with np.load(path) as saved:
        arrays = {name: saved[name] for name in saved.files}
    meta = json.loads(str(arrays.pop("meta")))
    del meta["bot"]["estimate_disjoint"]
    np.savez(path, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    stamp = path.stat().st_mtime_ns
    assert head_to_head(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 2, seed=6,
                        directory=tmp_path) == first
    assert path.stat().st_mtime_ns == stamp
    # a candidate that sets it is another bot: its boards go to a folder of their own
    disjoint = dataclasses.replace(QUICK_STRONG, estimate_disjoint=True)
    assert bot_directory(tmp_path, PINEAPPLE, disjoint) != path.parent


def test_entries_lost_to_fouls_count_the_fouled_boards_whose_rows_make_an_entry():
    # KK on top over a middle of queens fouls, though its top would enter Fantasyland; JJ
    # over tens fouls too, and its top enters nothing either way.
    kings = "Ks Kh 2c Qs Qd 7c 5d 3s As Ah Ad 9c 8c"
    jacks = "Js Jh 2c Ts Td 7c 5d 3s As Ah Ad 9c 8c"
    result = score(PINEAPPLE, _boards(kings, jacks, QUEENS, IVEY),
                   _boards(QUEENS, IVEY, QUEENS, FOULED))
    assert (result.challenger.foul_rate, result.challenger.entries_fouled_rate) == (0.5, 0.25)
    assert result.incumbent.entries_fouled_rate == 0.25  # aces on top over eights
    # deal 0: one lost against none, deal 1: none against one
    assert result.difference.entries_fouled_rate == pytest.approx((0.5 - 0.5) / 2)
    assert result.difference.entries_fouled_rate_se == pytest.approx(0.5)


def test_the_tool_plays_the_stronger_bot_against_the_shipped_one(capsys):
    code, out, _ = run(capsys, "head-to-head", "--hands", "1", "--seed", "3")
    assert code == 0, out
    assert "pineapple: 1 deals (0..0), each played from both seats (2 games), seed 3" in out
    assert "points a game" in out and "Stronger bot" in out


def test_bot_and_incumbent_choose_the_two_seats_and_the_table_names_them(capsys):
    args = ["head-to-head", "--hands", "1", "--seed", "3"]
    code, swapped, _ = run(capsys, *args, "--bot", "shipped", "--incumbent", "strong")
    assert code == 0, swapped
    assert "the shipped bot against the stronger one" in swapped
    assert "Points are the shipped bot's" in swapped
    # The same deal from the other side: the points change sign.
    default = run(capsys, *args)[1]

    def points(output: str) -> float:
        row = next(line for line in output.splitlines() if "points a game" in line)
        return float(re.search(r"points a game\W+([-+][\d.]+)", row).group(1))

    assert points(swapped) == pytest.approx(-points(default))


@pytest.mark.parametrize("args,message", [
    (["head-to-head", "--saved-only"],
     "--saved-only reads the boards of --chunks DIR: add --chunks"),
    (["pool", "--output", "p.npz", "--saved-only"],
     "--saved-only reads the boards of --chunks DIR: add --chunks"),
    (["head-to-head", "--incumbent-knob", "refine=lots"],
     "bot knob refine='lots': expected a whole number"),
    (["head-to-head", "--bot-knob", "refine"],
     "bot knob 'refine': expected NAME=VALUE, for example estimate_foul_penalty=10"),
    (["head-to-head", "--bot-knob", "placements=8"], "bot knob 'placements': expected one of"),
    (["head-to-head", "--bot-knob", "refine=8.5"], "bot knob refine='8.5': expected a whole"),
    (["head-to-head", "--bot-knob", "samples=0"], "bot knob samples='0': expected at least 1"),
    (["head-to-head", "--bot-knob", "rollouts=32"], "bot knob 'rollouts': expected one of"),
    (["pool", "--output", "p.npz", "--bot", "shipped", "--bot-knob", "table_points=yes"],
     "bot knob table_points='yes': expected true or false"),
    (["head-to-head", "--bot-knob", "table_refine=many"],
     "bot knob table_refine='many': expected a whole number or none"),
    (["head-to-head", "--bot", "perfect"], "argument --bot: invalid choice: 'perfect'"),
    (["head-to-head", "--variant", "chinese"], "closed-hand model, not a bot"),
])
def test_the_tool_refuses_what_it_cannot_do_in_one_line(capsys, tmp_path, monkeypatch, args,
                                                        message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("error: ") and message in err


def test_the_user_s_command_has_no_laboratory(capsys):
    # the harness left the product: the user's command refuses its options as unknown
    for option in ("--head-to-head", "--audit", "--bot", "--bot-knob", "--incumbent"):
        result = runner.invoke(app, ["opponents", option])
        assert result.exit_code == 2 and "No such option" in result.stderr, result.stderr


def test_a_bot_knob_plays_a_candidate_and_its_chunks_say_so(tmp_path, capsys):
    args = ["head-to-head", "--hands", "1", "--seed", "3", "--bot", "strong",
            "--incumbent", "strong", "--chunks", str(tmp_path)]
    # 4 placements is what the stronger bot rescores already: the candidate plays as it does
    code, same, _ = run(capsys, *args, "--bot-knob", "table_refine=4")
    assert code == 0, same
    assert "the candidate bot (stronger, table_refine=4) against the stronger one" in same
    assert "Points are the candidate bot's" in same
    assert re.search(r"points a game\W+\+0\.000 ± 0\.000", same), same
    # its chunk records the knobs as the bot plays them: the stronger bot's own, so the chunk
    # is the plain stronger bot's, and a candidate that plays otherwise is refused it
    code, plain, _ = run(capsys, *args, "--saved-only")
    assert code == 0 and "the stronger bot against the stronger one" in plain
    code, _, err = run(capsys, *args, "--saved-only", "--bot-knob",
                       "estimate_foul_penalty=6")
    assert code == 2 and "no deals of seed 3 saved" in err, err


def test_an_incumbent_knob_sets_the_incumbent_and_two_bots_alike_tie(capsys):
    code, out, _ = run(capsys, "head-to-head", "--hands", "1", "--seed", "3", "--bot", "strong",
                       "--bot-knob", "estimate_foul_penalty=6", "--incumbent", "strong",
                       "--incumbent-knob", "estimate_foul_penalty=6")
    assert code == 0, out
    assert ("the candidate bot (stronger, estimate_foul_penalty=6.0) against the incumbent one "
            "(stronger, estimate_foul_penalty=6.0)") in out
    assert re.search(r"points a game\W+\+0\.000 ± 0\.000", out), out


#: A cheap bot that sees the other board at its table.
SEEING = dataclasses.replace(QUICK_STRONG, sees_boards=True)


def test_bots_that_see_no_board_play_their_games_as_they_play_alone():
    games = play_games(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, QUICK, 5, 0, 3)
    assert (games["challenger"] == play_seats(PINEAPPLE, THREE_KEEP_TWO, QUICK_STRONG, 5, 0,
                                              3)).all()
    assert (games["incumbent"] == play_seats(PINEAPPLE, THREE_KEEP_TWO, QUICK, 5, 0, 3)).all()
    assert not in_turn(QUICK_STRONG, QUICK) and in_turn(QUICK, SEEING)


def test_a_bot_that_sees_the_table_is_never_dealt_a_card_face_up_on_the_other_board(
        monkeypatch):
    # Every decision's unseen cards, recorded in the order the seats play: seat A, then B,
    # on each street. The seeing seat's leave out every card on the other board so far; the
    # blind seat's keep them (it was dealt none of them, so they are all unseen to it).
    from fantasyland.optimizer.opponents import bot

    calls, choose = [], bot.choose

    def recording(rules, dealing, layout, new, keep, unseen, rounds_left, params, *rest,
                  **named):
        placed = choose(rules, dealing, layout, new, keep, unseen, rounds_left, params, *rest,
                        **named)
        calls.append((params.sees_boards, unseen.copy(), placed.copy()))
        return placed

    monkeypatch.setattr(bot, "choose", recording)
    hands = [cards.tolist() for cards in deal_seats(PINEAPPLE, THREE_KEEP_TWO, 9, 0)]
    rngs = [np.random.default_rng([9, 0, seat, PLAY]) for seat in range(2)]
    played = bot.play_in_turn(PINEAPPLE, THREE_KEEP_TWO, hands, [QUICK, SEEING], rngs)
    assert len(calls) == 10
    for step, (sees, unseen, _) in enumerate(calls):
        seat = step % 2
        other = calls[step - 1][2] if step else None  # the other seat's board so far
        shown = set() if other is None else {int(c) for c in other if c != EMPTY}
        seen = set(hands[seat][:5 + 3 * (step // 2)])
        assert sees == (seat == 1) and not seen & set(unseen.tolist())
        if sees:
            assert not shown & set(unseen.tolist())
            assert len(unseen) == 52 - len(seen) - len(shown)
        else:
            assert shown <= set(unseen.tolist()) and len(unseen) == 52 - len(seen)
    # the blind seat plays as it would alone
    alone = bot.play_hand(PINEAPPLE, THREE_KEEP_TWO, hands[0], QUICK,
                          np.random.default_rng([9, 0, 0, PLAY]))
    assert played[0] == alone


def test_games_in_turn_are_saved_as_the_pairs_and_read_back(tmp_path):
    whole = head_to_head(PINEAPPLE, THREE_KEEP_TWO, SEEING, QUICK, 3, seed=2)
    head_to_head(PINEAPPLE, THREE_KEEP_TWO, SEEING, QUICK, 2, seed=2, directory=tmp_path)
    head_to_head(PINEAPPLE, THREE_KEEP_TWO, SEEING, QUICK, 1, seed=2, first=2,
                 directory=tmp_path)
    folder = pair_directory(tmp_path, PINEAPPLE, SEEING, QUICK)
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]
    saved, ranges = saved_head_to_head(PINEAPPLE, SEEING, QUICK, 2, tmp_path)
    assert saved == whole and ranges == [(0, 3)]
    # the pair's games are its own: the seats' roles swapped are another pair
    with pytest.raises(OpponentModelError, match="for these bots at one table"):
        saved_head_to_head(PINEAPPLE, QUICK, SEEING, 2, tmp_path)
    # the blind incumbent's boards are those it plays alone; the seeing bot's differ
    games = play_games(PINEAPPLE, THREE_KEEP_TWO, SEEING, QUICK, 2, 0, 3)
    assert (games["incumbent"] == play_seats(PINEAPPLE, THREE_KEEP_TWO, QUICK, 2, 0, 3)).all()


def test_the_tool_plays_a_bot_that_sees_the_table_in_turn_and_scores_what_it_saved(
        tmp_path, capsys):
    args = ["head-to-head", "--seed", "3", "--bot", "strong", "--bot-knob", "samples=4",
            "--bot-knob", "sees_boards=true", "--incumbent", "strong", "--incumbent-knob",
            "samples=4", "--chunks", str(tmp_path)]
    code, played, _ = run(capsys, *args, "--hands", "2")
    assert code == 0, played
    assert [p.name.startswith("pair-") for p in tmp_path.iterdir()] == [True]
    code, scored, _ = run(capsys, *args, "--saved-only")
    assert code == 0, scored
    # the same table, played or read (the lines above it say which deals it played)
    assert scored[scored.index("points a game"):] == played[played.index("points a game"):]
    # another seed was never played at that table: refused in one line, exit 2
    code, _, err = run(capsys, *args, "--saved-only", "--seed", "4")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "no deals of seed 4 saved" in err and "for these bots at one table" in err
