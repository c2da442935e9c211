"""Learning the ranking from users: feedback on retrieved facts, a tenant's model trained from
it on top of the shipped one, versioned, shown and reset (:mod:`.service`; the fitting is
:mod:`.fit`)."""

from graph.memory.learning.fit import MIN_LABELS, NotEnoughFeedback, Residual, fit_residual
from graph.memory.learning.service import (
    UNOWNED_TENANT,
    FeedbackReceipt,
    ModelState,
    RankLearning,
    TenantModels,
    vocabulary_digest,
)

__all__ = [
    "MIN_LABELS",
    "UNOWNED_TENANT",
    "FeedbackReceipt",
    "ModelState",
    "NotEnoughFeedback",
    "RankLearning",
    "Residual",
    "TenantModels",
    "fit_residual",
    "vocabulary_digest",
]
