"""`keras.engine.training_generator` of standalone Keras 2.2.4: the module functions
`fit_generator(model, generator, ...)`, `evaluate_generator` and `predict_generator` that
`Model.fit_generator` and its siblings called with the model first. Keras 2.2.4's methods
were thin calls into these, so here each one is the model's own method with 2.2.4's
parameters and defaults (scripts that import the module call it the same way).
"""

from __future__ import annotations

from typing import Any, List, Optional

__all__ = ["fit_generator", "evaluate_generator", "predict_generator"]


def fit_generator(model: Any, generator: Any, steps_per_epoch: Optional[int] = None,
                  epochs: int = 1, verbose: int = 1, callbacks: Optional[List[Any]] = None,
                  validation_data: Any = None, validation_steps: Optional[int] = None,
                  class_weight: Any = None, max_queue_size: int = 10, workers: int = 1,
                  use_multiprocessing: bool = False, shuffle: bool = True,
                  initial_epoch: int = 0) -> Any:
    """Trains `model` on batches from `generator`; returns its History."""
    return model.fit_generator(generator, steps_per_epoch=steps_per_epoch, epochs=epochs,
                               verbose=verbose, callbacks=callbacks,
                               validation_data=validation_data,
                               validation_steps=validation_steps, class_weight=class_weight,
                               max_queue_size=max_queue_size, workers=workers,
                               use_multiprocessing=use_multiprocessing, shuffle=shuffle,
                               initial_epoch=initial_epoch)


def evaluate_generator(model: Any, generator: Any, steps: Optional[int] = None,
                       max_queue_size: int = 10, workers: int = 1,
                       use_multiprocessing: bool = False, verbose: int = 0) -> Any:
    """The model's loss and metrics over `steps` batches of `generator`."""
    return model.evaluate_generator(generator, steps=steps, max_queue_size=max_queue_size,
                                    workers=workers, use_multiprocessing=use_multiprocessing,
                                    verbose=verbose)


def predict_generator(model: Any, generator: Any, steps: Optional[int] = None,
                      max_queue_size: int = 10, workers: int = 1,
                      use_multiprocessing: bool = False, verbose: int = 0) -> Any:
    """The model's outputs for `steps` batches of `generator`."""
    return model.predict_generator(generator, steps=steps, max_queue_size=max_queue_size,
                                   workers=workers, use_multiprocessing=use_multiprocessing,
                                   verbose=verbose)
