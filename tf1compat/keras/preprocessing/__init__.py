"""`tf.keras.preprocessing`: `image` (ImageDataGenerator and image helpers), `sequence`
(padding, TimeseriesGenerator, skip-grams) and `text` (Tokenizer and word hashing), with
tf-keras 2.21's behaviour."""

from tf1compat.keras.preprocessing import image, sequence, text

__all__ = ["image", "sequence", "text"]
