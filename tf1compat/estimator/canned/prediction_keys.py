"""The prediction names of the canned heads (TF's canned/prediction_keys.py)."""

__all__ = ["PredictionKeys"]


class PredictionKeys:
    """Keys of the canned estimators' prediction dicts."""

    CLASSES = "classes"
    CLASS_IDS = "class_ids"
    ALL_CLASSES = "all_classes"
    ALL_CLASS_IDS = "all_class_ids"
    LOGISTIC = "logistic"
    LOGITS = "logits"
    PREDICTIONS = "predictions"
    PROBABILITIES = "probabilities"
    TOP_K = "top_k"
