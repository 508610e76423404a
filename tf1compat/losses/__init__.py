"""`tf.losses`: TF1's loss functions and loss collections."""

# ruff: noqa: F401
from tf1compat.losses.losses_impl import (Reduction, absolute_difference, compute_weighted_loss,
                                          cosine_distance, hinge_loss, huber_loss, log_loss,
                                          mean_pairwise_squared_error, mean_squared_error,
                                          sigmoid_cross_entropy, softmax_cross_entropy,
                                          sparse_softmax_cross_entropy)
from tf1compat.losses.util import (add_loss, get_losses, get_regularization_loss,
                                   get_regularization_losses, get_total_loss)
