"""TensorBoard summaries of GAN models (TF 1.14's summaries_impl.py): image grids of
real and generated data, input/output/reconstruction comparisons, variable histograms
and regularization losses."""

from __future__ import annotations

from typing import Any

from tf1compat.contrib.gan import namedtuples
from tf1compat.contrib.gan.eval.eval_utils import image_grid, image_reshaper
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.losses.util import get_regularization_loss
from tf1compat.ops.array_ops import expand_dims, split, squeeze, unstack
from tf1compat.ops.creation_ops import one_hot, zeros_like
from tf1compat.ops.functional_ops import map_fn
from tf1compat.ops.math_ops import abs as tf_abs, cast
from tf1compat.ops.transform_ops import tile
from tf1compat.summary.summary_ops import histogram, image, scalar
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["add_gan_model_image_summaries", "add_image_comparison_summaries",
           "add_gan_model_summaries", "add_regularization_loss_summaries",
           "add_cyclegan_image_summaries", "add_stargan_image_summaries"]


def _assert_is_image(data: Any) -> None:
    data.shape.assert_has_rank(4)
    data.shape[1:].assert_is_fully_defined()


def add_gan_model_image_summaries(gan_model: Any, grid_size: int = 4,
                                  model_summaries: bool = True) -> None:
    """Image summaries 'real_data' and 'generated_data': grid_size x grid_size grids of
    the first grid_size**2 examples; plus add_gan_model_summaries when asked."""
    if isinstance(gan_model, namedtuples.CycleGANModel):
        raise ValueError("`add_gan_model_image_summaries` does not take CycleGANModels. "
                         "Please use `add_cyclegan_image_summaries` instead.")
    _assert_is_image(gan_model.real_data)
    _assert_is_image(gan_model.generated_data)
    count = grid_size ** 2
    for tag, data in (("real_data", gan_model.real_data),
                      ("generated_data", gan_model.generated_data)):
        dims = data.shape.as_list()
        image(tag, image_grid(data[:count], grid_shape=(grid_size, grid_size),
                              image_shape=dims[1:3], num_channels=dims[3]), max_outputs=1)
    if model_summaries:
        add_gan_model_summaries(gan_model)


def add_cyclegan_image_summaries(cyclegan_model: Any) -> None:
    """Per direction, an 'image_comparison' of the first input, its translation and its
    reconstruction side by side."""
    if not isinstance(cyclegan_model, namedtuples.CycleGANModel):
        raise ValueError("`cyclegan_model` was not a CycleGANModel. Instead, was "
                         f"{type(cyclegan_model)}")
    for data in (cyclegan_model.model_x2y.generator_inputs,
                 cyclegan_model.model_x2y.generated_data, cyclegan_model.reconstructed_x,
                 cyclegan_model.model_y2x.generator_inputs,
                 cyclegan_model.model_y2x.generated_data, cyclegan_model.reconstructed_y):
        _assert_is_image(data)

    def comparison(model: Any, reconstructions: Any) -> None:
        images = (unstack(model.generator_inputs[:1]) + unstack(model.generated_data[:1])
                  + unstack(reconstructions[:1]))
        image("image_comparison", image_reshaper(images, num_cols=len(images)),
              max_outputs=1)
    with name_scope("x2y_image_comparison_summaries"):
        comparison(cyclegan_model.model_x2y, cyclegan_model.reconstructed_x)
    with name_scope("y2x_image_comparison_summaries"):
        comparison(cyclegan_model.model_y2x, cyclegan_model.reconstructed_y)


def add_image_comparison_summaries(gan_model: Any, num_comparisons: int = 2,
                                   display_diffs: bool = False) -> None:
    """One 'image_comparison' with a column per example: input, output, real data (and
    |generated - real| with `display_diffs`); for image-to-image GANs."""
    _assert_is_image(gan_model.generator_inputs)
    _assert_is_image(gan_model.generated_data)
    _assert_is_image(gan_model.real_data)
    gan_model.generated_data.shape.assert_is_compatible_with(
        gan_model.generator_inputs.shape)
    gan_model.real_data.shape.assert_is_compatible_with(gan_model.generated_data.shape)
    images = []
    images.extend(unstack(gan_model.generator_inputs[:num_comparisons]))
    images.extend(unstack(gan_model.generated_data[:num_comparisons]))
    images.extend(unstack(gan_model.real_data[:num_comparisons]))
    if display_diffs:
        generated = unstack(gan_model.generated_data[:num_comparisons])
        real = unstack(gan_model.real_data[:num_comparisons])
        images.extend(tf_abs(cast(g, dtypes.float32) - cast(r, dtypes.float32))
                      for g, r in zip(generated, real))
    image("image_comparison", image_reshaper(images, num_cols=num_comparisons),
          max_outputs=1)


def add_stargan_image_summaries(stargan_model: Any, num_images: int = 2,
                                display_diffs: bool = False) -> None:
    """'stargan_image_generation': for each of the first `num_images` inputs, the input
    followed by its translation into every domain (and the differences with
    `display_diffs`), the generator reused."""
    _assert_is_image(stargan_model.input_data)
    labels = stargan_model.input_data_domain_label
    labels.shape.assert_has_rank(2)
    labels.shape[1:].assert_is_fully_defined()
    num_domains = labels.get_shape().as_list()[-1]

    def build_image(one: Any) -> Any:
        batch = tile(expand_dims(one, axis=0), [num_domains, 1, 1, 1])
        targets = one_hot(list(range(num_domains)), num_domains)
        with variable_scope(stargan_model.generator_scope, reuse=True):
            outputs = [one]
            generated = stargan_model.generator_fn(batch, targets)
            outputs.extend(squeeze(t, axis=0) for t in split(generated, num_domains))
            if display_diffs:
                outputs.append(zeros_like(one))
                outputs.extend(squeeze(t, axis=0)
                               for t in split(generated - batch, num_domains))
            grid = image_reshaper(outputs, num_cols=num_domains + 1)
        return squeeze(grid, axis=0)
    image("stargan_image_generation",
          map_fn(build_image, stargan_model.input_data[:num_images],
                 parallel_iterations=num_images, back_prop=False, swap_memory=True),
          max_outputs=num_images)


def add_gan_model_summaries(gan_model: Any) -> None:
    """A histogram of every generator and discriminator variable (under
    'generator_variables' / 'discriminator_variables'); both directions of a CycleGAN."""
    if isinstance(gan_model, namedtuples.CycleGANModel):
        with name_scope("cyclegan_x2y_summaries"):
            add_gan_model_summaries(gan_model.model_x2y)
        with name_scope("cyclegan_y2x_summaries"):
            add_gan_model_summaries(gan_model.model_y2x)
        return
    with name_scope("generator_variables"):
        for var in gan_model.generator_variables:
            histogram(var.name, var)
    with name_scope("discriminator_variables"):
        for var in gan_model.discriminator_variables:
            histogram(var.name, var)


def add_regularization_loss_summaries(gan_model: Any) -> None:
    """Scalar summaries of each network's regularization loss."""
    if isinstance(gan_model, namedtuples.CycleGANModel):
        with name_scope("cyclegan_x2y_regularization_loss_summaries"):
            add_regularization_loss_summaries(gan_model.model_x2y)
        with name_scope("cyclegan_y2x_regularization_loss_summaries"):
            add_regularization_loss_summaries(gan_model.model_y2x)
        return
    if gan_model.generator_scope:
        scalar("generator_regularization_loss",
               get_regularization_loss(gan_model.generator_scope.name))
    if gan_model.discriminator_scope:
        scalar("discriminator_regularization_loss",
               get_regularization_loss(gan_model.discriminator_scope.name))
