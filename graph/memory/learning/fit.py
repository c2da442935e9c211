"""Fitting a tenant's correction of the shipped ranker from its users' verdicts (pure, numpy).

The shipped model already orders well; a tenant's feedback says where it is wrong *for this
tenant* (what its users find helpful). So the tenant's model is the shipped one plus a
residual linear layer, fitted by L2-regularised logistic regression whose offset is the shipped
model's calibrated logit: ``P(helpful) = sigmoid(a·(raw_shipped + r(x)) + b)``. The penalty
pulls every weight towards 0, i.e. towards the shipped model, so a few labels move the order a
little and many labels more. Newton's method (a few dozen features, thousands of labels at
most) converges in a handful of steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from graph.errors import BadInput

__all__ = ["MIN_LABELS", "NotEnoughFeedback", "Residual", "fit_residual"]

MIN_LABELS = 30
L2 = 1.0


class NotEnoughFeedback(BadInput):
    """Too few verdicts, or verdicts of one kind only, to fit a model from."""


@dataclass(frozen=True)
class Residual:
    """The fitted layer, as the model document's ``residual`` object, and how it fitted."""

    document: dict[str, Any]
    labels: int
    helpful: int
    log_loss_before: float
    log_loss_after: float


def _log_loss(logit: np.ndarray, y: np.ndarray) -> float:
    p = 1.0 / (1.0 + np.exp(-np.clip(logit, -50.0, 50.0)))
    eps = 1e-12
    return float(-np.mean(y * np.log(p + eps) + (1.0 - y) * np.log(1.0 - p + eps)))


def fit_residual(
    features: list[str],
    x: np.ndarray,
    helpful: np.ndarray,
    raw: np.ndarray,
    calibration: tuple[float, float],
    *,
    min_labels: int = MIN_LABELS,
    l2: float = L2,
    steps: int = 50,
) -> Residual:
    """The residual layer over ``features`` (columns of ``x``) fitted to ``helpful`` (0/1),
    with the shipped model's ``raw`` scores of the same rows and its ``calibration``.

    Raises:
        NotEnoughFeedback: fewer than ``min_labels`` verdicts, or none helpful or none not.
    """
    y = np.asarray(helpful, dtype=float)
    n, positive = len(y), int(y.sum())
    if n < min_labels or positive == 0 or positive == n:
        raise NotEnoughFeedback(
            f"{n} verdicts ({positive} helpful): at least {min_labels}, of both kinds, are "
            "needed to train a ranking model"
        )
    a, b = calibration
    offset = a * raw + b
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.column_stack([(x - mean) / scale, np.ones(n)])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = l2 * 1e-3  # the intercept is nearly free

    def objective(v: np.ndarray) -> float:
        return n * _log_loss(offset + z @ v, y) + 0.5 * float(penalty @ (v * v))

    current = objective(w)
    for _ in range(steps):
        logit = offset + z @ w
        p = 1.0 / (1.0 + np.exp(-np.clip(logit, -50.0, 50.0)))
        grad = z.T @ (p - y) + penalty * w
        hessian = (z * (p * (1.0 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hessian, grad)
        size = 1.0  # damped Newton: halve the step until the objective falls
        while size > 1e-4 and objective(w - size * step) > current:
            size /= 2
        if size <= 1e-4:
            break
        w = w - size * step
        current = objective(w)
        if float(np.max(np.abs(size * step))) < 1e-8:
            break
    # In raw-score units: the calibration's slope divides the logit's weights out.
    document = {
        "features": list(features),
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "weights": (w[:-1] / a).tolist(),
        "bias": float(w[-1] / a),
    }
    return Residual(
        document=document,
        labels=n,
        helpful=positive,
        log_loss_before=_log_loss(offset, y),
        log_loss_after=_log_loss(offset + z @ w, y),
    )
