"""The worked example of docs/migrating.md: main.py's CNN trained TF1-style, exported to a
torch module with tf1compat.export, then fine-tuned in plain PyTorch.

    python to_pytorch.py        (from this folder; tests/test_export_worked_example.py)
"""
import os
import tempfile

import tf1compat
tf1compat.install()              # main.py's `import tensorflow` resolves to tf1compat

import numpy as np               # noqa: E402
import torch                     # noqa: E402
from torch import nn             # noqa: E402

import main as cnn               # noqa: E402 - builds the TF1 graph (trains only as a script)
import tensorflow as tf          # noqa: E402
import tf1compat.export as tfx   # noqa: E402

# -- 1. TF1-style training, as before the migration -----------------------------------------
# On the CPU, where the module below runs: a Session on a GPU convolves in TF32 (as TF
# does), which rounds differently, so the step-by-step comparison needs one device.
sess = tf.Session(config=tf.ConfigProto(device_count={"GPU": 0}))
sess.run(tf.global_variables_initializer())
cnn.train(sess, 20)

# -- 2. Export: loss and logits as functions of the feeds, with the trained variables -------
module = tfx.to_module({"loss": cnn.loss, "logits": cnn.logits}, feeds=[cnn.x, cnn.y],
                       session=sess)
print(module)
print("parameters:", [name for name, _ in module.named_parameters()])

# TF's Momentum accumulators are torch's momentum buffers: the optimizer state moves too.
optimizer = torch.optim.SGD(module.parameters(), lr=cnn.learning_rate, momentum=cnn.momentum)
for name, param in module.named_parameters():
    slot = sess.run(module.variable_names[name] + "/Momentum:0")
    optimizer.state[param]["momentum_buffer"] = torch.from_numpy(slot)

# -- 3. The next training step both ways: identical loss, identical weights after it -------
images, labels = cnn.batch(20)
tf_loss, _ = sess.run([cnn.loss, cnn.train_op], {cnn.x: images, cnn.y: labels})
trained_by_tf = {name: sess.run(key + ":0") for name, key in module.variable_names.items()}

optimizer.zero_grad()
torch_loss = module(torch.from_numpy(images), torch.from_numpy(labels))["loss"]
torch_loss.backward()
optimizer.step()
print("first-step loss: TF1 %.6f, PyTorch %.6f" % (tf_loss, torch_loss.item()))
np.testing.assert_allclose(torch_loss.item(), tf_loss, rtol=1e-6)
for name, param in module.named_parameters():
    np.testing.assert_allclose(param.detach().numpy(), trained_by_tf[name], rtol=1e-5,
                               atol=1e-6)
print("weights after the step agree")
sess.close()                     # TensorFlow's part ends here

# -- 4. Fine-tuning in plain PyTorch ----------------------------------------------------------
for step in range(21, 31):
    images, labels = cnn.batch(step)
    optimizer.zero_grad()
    loss = module(torch.from_numpy(images), torch.from_numpy(labels))["loss"]
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        print("torch step %d loss %.5f" % (step, loss.item()))
path = os.path.join(tempfile.mkdtemp(), "cnn.pt")
torch.save(module.state_dict(), path)


# -- 5. The weights in a hand-written PyTorch model (NCHW), through the layout mapping -------
class TorchCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 4 * 4, 32)
        self.logits = nn.Linear(32, 10)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        t = images.permute(0, 3, 1, 2)                         # NHWC -> NCHW
        t = nn.functional.max_pool2d(torch.relu(self.conv1(t)), 2)
        t = nn.functional.max_pool2d(torch.relu(self.conv2(t)), 2)
        return self.logits(torch.relu(self.fc(t.flatten(1))))


reloaded = tfx.to_module({"loss": cnn.loss, "logits": cnn.logits}, feeds=[cnn.x, cnn.y])
reloaded.load_state_dict(torch.load(path))
model = TorchCNN()
model.load_state_dict(tfx.torch_state_dict(reloaded, {
    "conv1": ("conv2d", "conv1"),
    "conv2": ("conv2d", "conv2"),
    "fc": ("dense", "fc", {"flatten_from": (4, 4, 16)}),   # TF flattened NHWC
    "logits": ("dense", "logits"),
}))
images = torch.from_numpy(cnn.train_images[:64])
expected = reloaded(images, torch.from_numpy(cnn.train_labels[:64]))["logits"]
np.testing.assert_allclose(model(images).detach().numpy(), expected.detach().numpy(),
                           rtol=1e-4, atol=1e-5)
accuracy = (model(images).argmax(1).numpy() == cnn.train_labels[:64]).mean()
print("hand-written model agrees; accuracy on 64 training images %.3f" % accuracy)

# -- 6. A deployable program: torch.export of the exported module ---------------------------
# strict=False: non-strict tracing (torch's default from 2.7 on; older torch needs it said)
program = torch.export.export(reloaded, (images, torch.from_numpy(cnn.train_labels[:64])),
                              strict=False)
print("torch.export:", len(program.graph.nodes), "nodes")
