"""`tf.train`."""

# ruff: noqa: F401

# (section: variables — global step, ExponentialMovingAverage, replica_device_setter)
from tf1compat.training.device_setter import ClusterSpec, replica_device_setter
from tf1compat.distribute.server import Server
from tf1compat.serialization.messages import ClusterDef, JobDef, ServerDef
from tf1compat.training.moving_averages import ExponentialMovingAverage
from tf1compat.training.training_util import (assert_global_step, create_global_step,
                                              get_global_step, get_or_create_global_step,
                                              global_step)

# (section: optimizers and schedules)
from tf1compat.training.optimizers import (AdadeltaOptimizer, AdagradDAOptimizer,
                                           AdagradOptimizer, AdamOptimizer, FtrlOptimizer,
                                           GradientDescentOptimizer, MomentumOptimizer,
                                           Optimizer, ProximalAdagradOptimizer,
                                           ProximalGradientDescentOptimizer, RMSPropOptimizer,
                                           SyncReplicasOptimizer)
from tf1compat.distribute import sync_replicas as _sync_replicas  # hooks.SYNC_REPLICAS
from tf1compat.training.learning_rate_decay import (cosine_decay, cosine_decay_restarts,
                                                    exponential_decay, inverse_time_decay,
                                                    linear_cosine_decay, natural_exp_decay,
                                                    noisy_linear_cosine_decay,
                                                    piecewise_constant, polynomial_decay)
from tf1compat.training.learning_rate_decay import (
    piecewise_constant as piecewise_constant_decay)

# (section: checkpoints — Saver, Checkpoint, checkpoint utilities)
from tf1compat.serialization.checkpoint_reader import NewCheckpointReader
from tf1compat.training.saving.checkpoint_state import (checkpoint_exists,
                                                        generate_checkpoint_state_proto,
                                                        get_checkpoint_mtimes,
                                                        get_checkpoint_state, latest_checkpoint,
                                                        remove_checkpoint, update_checkpoint_state)
from tf1compat.training.saving.checkpoint_utils import (checkpoints_iterator, init_from_checkpoint,
                                                        list_variables, load_checkpoint,
                                                        load_variable)
from tf1compat.training.saving.graph_util import write_graph
from tf1compat.training.saving.meta_graph import export_meta_graph, import_meta_graph
from tf1compat.training.saving.saver import Saver, SaverDef
from tf1compat.training.saving.warm_starting_util import VocabInfo, warm_start
from tf1compat.training.saving.trackable_checkpoint import (Checkpoint, CheckpointManager,
                                                            CheckpointOptions)

# (section: input pipelines — tf.train.Example protos)
from tf1compat.serialization.messages import (Example, Feature, FeatureList, FeatureLists,
                                              Features, SequenceExample)
from tf1compat.serialization.messages import ExampleBytesList as BytesList
from tf1compat.serialization.messages import ExampleFloatList as FloatList
from tf1compat.serialization.messages import ExampleInt64List as Int64List

# (section: training loop — coordinator, session hooks, monitored sessions)
from tf1compat.training import queue_runner
from tf1compat.training.sessions.basic_session_run_hooks import (CheckpointSaverHook,
                                                                 CheckpointSaverListener,
                                                                 FeedFnHook, FinalOpsHook,
                                                                 GlobalStepWaiterHook,
                                                                 LoggingTensorHook,
                                                                 NanLossDuringTrainingError,
                                                                 NanTensorHook, ProfilerHook,
                                                                 SecondOrStepTimer,
                                                                 StepCounterHook, StopAtStepHook,
                                                                 SummarySaverHook)
from tf1compat.training.sessions.coordinator import Coordinator, LooperThread
from tf1compat.training.queue_runner import QueueRunner, add_queue_runner, start_queue_runners

# (section: queue-based input pipelines — producers, batching)
from tf1compat.training.queue_input import (batch, batch_join, input_producer, limit_epochs,
                                            maybe_batch, maybe_batch_join, maybe_shuffle_batch,
                                            maybe_shuffle_batch_join, range_input_producer,
                                            shuffle_batch, shuffle_batch_join,
                                            slice_input_producer, string_input_producer)
from tf1compat.training.sessions.monitored_session import (ChiefSessionCreator, MonitoredSession,
                                                           MonitoredTrainingSession, Scaffold,
                                                           SessionCreator,
                                                           SingularMonitoredSession,
                                                           WorkerSessionCreator)
from tf1compat.training.sessions.session_manager import SessionManager
from tf1compat.training.sessions.supervisor import Supervisor
from tf1compat.training.sessions.basic_loops import basic_train_loop
from tf1compat.training.input_utils import match_filenames_once
from tf1compat.training.sessions.session_run_hook import (SessionRunArgs, SessionRunContext,
                                                          SessionRunHook, SessionRunValues)
from tf1compat.summary.summary_iterator import summary_iterator

# (section: sdca) the SDCA solver ops of TF's linear SDCA optimizer
from tf1compat.ops.sdca_ops import sdca_fprint, sdca_optimizer, sdca_shrink_l1



from tf1compat.api import train_experimental as experimental  # noqa: E402

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('train', globals())
