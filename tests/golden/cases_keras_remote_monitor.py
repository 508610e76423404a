"""Golden cases: tf.keras.callbacks.RemoteMonitor posting epoch logs to a local HTTP
server during fit (TF1 graph mode): the request path, content type, custom headers and the
JSON it carries, as a form field or as the body; an unreachable server is not an error."""

import http.server
import json
import threading
import urllib.parse

import numpy as np

from tests.golden.harness import catch, tolerance
from tests.golden.keras_util import data, mlp


class _Recorder(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):  # noqa: N802 - http.server's hook name
        body = self.rfile.read(int(self.headers["Content-Length"])).decode("utf-8")
        type(self).received.append({"path": self.path, "type": self.headers["Content-Type"],
                                    "token": self.headers.get("X-Token"), "body": body})
        self.send_response(200 if "fail" not in self.path else 500)
        self.end_headers()

    def log_message(self, *args):
        pass


def _parsed(request):
    if request["type"] == "application/json":
        payload = json.loads(request["body"])
    else:
        form = urllib.parse.parse_qs(request["body"])
        payload = {field: json.loads(values[0]) for field, values in form.items()}
    rounded = json.loads(json.dumps(payload), parse_float=lambda v: round(float(v), 4))
    return {"path": request["path"], "type": request["type"], "token": request["token"],
            "payload": rounded}


@tolerance(rtol=1e-4, atol=1e-4)
def case_remote_monitor_posts_epoch_logs(tf):
    server = http.server.HTTPServer(("127.0.0.1", 0), _Recorder)
    _Recorder.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        model = mlp(tf)
        model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
        x, y = data(8)
        callbacks = [tf.keras.callbacks.RemoteMonitor(root=root),
                     tf.keras.callbacks.RemoteMonitor(root=root, path="/json/",
                                                      send_as_json=True,
                                                      headers={"X-Token": "abc"}),
                     tf.keras.callbacks.RemoteMonitor(root=root, path="/form/fail/",
                                                      field="logs")]
        model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0,
                  validation_data=(x[:4], y[:4]), callbacks=callbacks)
        unreachable = tf.keras.callbacks.RemoteMonitor(root="http://127.0.0.1:9")
        unreachable.set_model(model)
        missing = catch(lambda: unreachable.on_epoch_end(0, {"loss": np.float32(1.5)}))
    finally:
        server.shutdown()
        server.server_close()
    monitor = tf.keras.callbacks.RemoteMonitor()
    return {"requests": [_parsed(r) for r in _Recorder.received], "unreachable": missing,
            "defaults": [monitor.root, monitor.path, monitor.field, monitor.headers,
                         monitor.send_as_json]}
