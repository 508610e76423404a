"""`tf.contrib.gan.eval`: image grids and GAN summaries, and classifier-based metrics
(classifier score, Frechet and kernel distances) on a user classifier or TF's frozen
Inception graph, and the sliced Wasserstein distance of image sets (TF 1.14's
contrib/gan/python/eval)."""

# ruff: noqa: F401
from tf1compat.contrib.gan.eval import classifier_metrics, eval_utils, summaries
from tf1compat.contrib.gan.eval.classifier_metrics import INCEPTION_DEFAULT_IMAGE_SIZE, \
    classifier_score, classifier_score_from_logits, \
    diagonal_only_frechet_classifier_distance_from_activations, \
    frechet_classifier_distance, frechet_classifier_distance_from_activations, \
    frechet_inception_distance, get_graph_def_from_disk, get_graph_def_from_resource, \
    get_graph_def_from_url_tarball, inception_score, kernel_classifier_distance, \
    kernel_classifier_distance_and_std, kernel_classifier_distance_and_std_from_activations, \
    kernel_classifier_distance_from_activations, kernel_inception_distance, \
    kernel_inception_distance_and_std, mean_only_frechet_classifier_distance_from_activations, \
    preprocess_image, run_image_classifier, run_inception
from tf1compat.contrib.gan.eval.eval_utils import image_grid, image_reshaper
from tf1compat.contrib.gan.eval.sliced_wasserstein import sliced_wasserstein_distance
from tf1compat.contrib.gan.eval.summaries import add_cyclegan_image_summaries, \
    add_gan_model_image_summaries, add_gan_model_summaries, add_image_comparison_summaries, \
    add_regularization_loss_summaries, add_stargan_image_summaries
from tf1compat.contrib._missing import missing as _missing

__getattr__ = _missing("tf.contrib.gan.eval")
