"""The model of the learned value: a small network, trained and run with numpy alone.

Two hidden layers of rectified units over the standardized features, one output. ``fit``
trains it by Adam on the squared error, from a seed; ``Network.predict`` values boards. Same
data and seed, same weights, byte for byte: every draw comes from the seed, and the sums are
taken in a fixed order (float64 throughout).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Units of each hidden layer.
HIDDEN = (64, 64)
#: The least a feature is divided by when standardized (features lie in 0 to 1 or so).
SCALE_FLOOR = 0.1


@dataclass(frozen=True)
class Network:
    """Weights of the network: the features' ``mean`` and ``scale`` that standardize them,
    then ``layers``, each ``(weights, bias)``; the last layer has one output."""

    mean: np.ndarray
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def predict(self, x: np.ndarray) -> np.ndarray:
        """``(N,)``: the value of each row of features ``x`` ``(N, F)``."""
        h = (np.asarray(x, dtype=np.float64) - self.mean) / self.scale
        for weights, bias in self.layers[:-1]:
            h = np.maximum(h @ weights + bias, 0.0)
        weights, bias = self.layers[-1]
        return (h @ weights + bias)[:, 0]

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The weights as named arrays (for an ``.npz``), each name starting ``prefix``."""
        out = {f"{prefix}mean": self.mean, f"{prefix}scale": self.scale}
        for i, (weights, bias) in enumerate(self.layers):
            out[f"{prefix}w{i}"], out[f"{prefix}b{i}"] = weights, bias
        return out

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], prefix: str) -> Network:
        layers: list[tuple[np.ndarray, np.ndarray]] = []
        while f"{prefix}w{len(layers)}" in arrays:
            i = len(layers)
            layers.append((np.asarray(arrays[f"{prefix}w{i}"], dtype=np.float64),
                           np.asarray(arrays[f"{prefix}b{i}"], dtype=np.float64)))
        return cls(np.asarray(arrays[f"{prefix}mean"], dtype=np.float64),
                   np.asarray(arrays[f"{prefix}scale"], dtype=np.float64), tuple(layers))


@dataclass(frozen=True)
class Fit:
    """A trained network and how well it fits: the root mean squared error on the rows it
    was trained on and on the rows held out of training."""

    network: Network
    train_error: float
    held_out_error: float


def fit(x: np.ndarray, y: np.ndarray, *, seed: int, epochs: int = 40, batch: int = 256,
        rate: float = 1e-3, held_out: float = 0.1, hidden: tuple[int, ...] = HIDDEN) -> Fit:
    """A network that values rows of ``x`` ``(N, F)`` as ``y`` ``(N,)``, trained by Adam on
    minibatches of the squared error, ``held_out`` of the rows kept aside to measure it."""
    rng = np.random.default_rng(seed)
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    order = rng.permutation(len(x))
    cut = int(len(x) * (1 - held_out))
    train, test = order[:cut], order[cut:]
    mean = x[train].mean(axis=0)
    # a floor on the scale: a rare feature (a pair of fives on top) would otherwise stand
    # tens of units out on the boards that have it, and the network's value of them is wild
    scale = np.maximum(x[train].std(axis=0), SCALE_FLOOR)
    xs = (x - mean) / scale
    sizes = (x.shape[1],) + tuple(hidden) + (1,)
    params: list[np.ndarray] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        params.append(rng.normal(0.0, np.sqrt(2.0 / a), size=(a, b)))
        params.append(np.zeros(b))
    params[-1] = params[-1] + y[train].mean()
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        shuffled = train[rng.permutation(len(train))]
        for start in range(0, len(shuffled), batch):
            rows = shuffled[start:start + batch]
            grads = _gradients(params, xs[rows], y[rows])
            step += 1
            for p, g, m, v in zip(params, grads, moments, squares):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    layers = tuple((params[i], params[i + 1]) for i in range(0, len(params), 2))
    network = Network(mean, scale, layers)

    def error(rows: np.ndarray) -> float:
        if not len(rows):
            return float("nan")
        return float(np.sqrt(np.mean((network.predict(x[rows]) - y[rows]) ** 2)))

    return Fit(network, error(train), error(test))


def _gradients(params: list[np.ndarray], x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """The gradients of the mean squared error of the network ``params`` on ``(x, y)``."""
    activations = [x]
    h = x
    layers = len(params) // 2
    for i in range(layers - 1):
        h = np.maximum(h @ params[2 * i] + params[2 * i + 1], 0.0)
        activations.append(h)
    out = (h @ params[-2] + params[-1])[:, 0]
    delta = (2.0 * (out - y) / len(y))[:, None]
    grads: list[np.ndarray] = [np.empty(0)] * len(params)
    for i in range(layers - 1, -1, -1):
        grads[2 * i] = activations[i].T @ delta
        grads[2 * i + 1] = delta.sum(axis=0)
        if i:
            delta = (delta @ params[2 * i].T) * (activations[i] > 0)
    return grads
