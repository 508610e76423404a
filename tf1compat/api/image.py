"""`tf.image` (TF 1.x)."""

# ruff: noqa: F401
from tf1compat.ops.image_ops import (ResizeMethod, adjust_brightness, adjust_contrast, central_crop,
                                     convert_image_dtype, crop_to_bounding_box,
                                     flip_left_right, flip_up_down, grayscale_to_rgb,
                                     extract_image_patches, image_gradients,
                                     pad_to_bounding_box, random_contrast,
                                     per_image_standardization, random_brightness,
                                     random_crop, random_flip_left_right,
                                     random_flip_up_down, resize, resize_area,
                                     resize_bicubic, resize_bilinear,
                                     resize_image_with_crop_or_pad, resize_image_with_pad,
                                     resize_images, resize_nearest_neighbor,
                                     resize_with_crop_or_pad, rgb_to_grayscale, rot90,
                                     total_variation, transpose_image)
from tf1compat.ops.image_ops import transpose_image as transpose

# (section: api-math)
from tf1compat.ops.image_color import (adjust_gamma, adjust_hue, adjust_saturation,
                                       hsv_to_rgb, random_hue, random_saturation, rgb_to_hsv,
                                       rgb_to_yiq, rgb_to_yuv, yiq_to_rgb, yuv_to_rgb)
from tf1compat.ops.image_jpeg_quality import adjust_jpeg_quality, random_jpeg_quality
from tf1compat.ops.image_crops import (crop_and_resize, draw_bounding_boxes, extract_glimpse,
                                       sample_distorted_bounding_box)
from tf1compat.ops.image_nms import (combined_non_max_suppression,
                                     generate_bounding_box_proposals, non_max_suppression,
                                     non_max_suppression_padded,
                                     non_max_suppression_with_scores)
from tf1compat.ops.image_nms import (
    non_max_suppression_with_overlaps as non_max_suppression_overlaps)
from tf1compat.ops.image_quality import (extract_patches, psnr, sobel_edges, ssim,
                                         ssim_multiscale)
# (section: image files — decoding and encoding on Pillow)
from tf1compat.ops.image_codecs import (decode_and_crop_jpeg, decode_bmp, decode_gif,
                                        decode_image, decode_jpeg, decode_png, decode_webp,
                                        encode_jpeg, encode_png, extract_jpeg_shape,
                                        is_jpeg)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('image', globals())
