"""`tf.distribute.experimental` (TF1): CentralStorageStrategy, MultiWorkerMirroredStrategy
and its communication options, ParameterServerStrategy; the TPU strategy raises
NotImplementedError naming itself."""

# ruff: noqa: F401
from tf1compat.distribute.multi_worker_strategy import (CollectiveCommunication,
                                                        CommunicationImplementation,
                                                        CommunicationOptions,
                                                        MultiWorkerMirroredStrategy)
from tf1compat.distribute.ps_strategy import ParameterServerStrategy
from tf1compat.training.strategies.mirrored import CentralStorageStrategy
from tf1compat.contrib import distribute as _contrib_distribute
from tf1compat.distribute.multi_worker_strategy import CollectiveAllReduceStrategy as _CARS

_contrib_distribute.FILLED_FROM_ABOVE["CollectiveAllReduceStrategy"] = _CARS


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('distribute.experimental', globals())
