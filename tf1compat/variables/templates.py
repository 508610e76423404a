"""`tf.make_template`: wrap a function so its variables are created once and then shared.

The first call opens a variable scope (unique per template name: `scope`, `scope_1`, ...)
and creates the variables with `tf.get_variable`; later calls re-enter the same scope with
`reuse=True`. Each call opens a fresh name scope for its ops. Creating a trainable
variable on a later call (with `tf.Variable` instead of `tf.get_variable`) is a
ValueError, as in TF.

Under eager execution the template is TF's `EagerTemplate`: eager variables live in no
graph collection, so each template keeps its own variable store (nested inside an
enclosing template's), re-entered with AUTO_REUSE on every call; its `variables` are that
store's variables under the template's scope (Sonnet v1 modules are templates, so this is
how their `get_variables()` works eagerly).
"""

from __future__ import annotations

import contextlib
import functools
import traceback
from typing import Any, Callable, Iterator, List, Optional

from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import GraphKeys, get_collection, get_collection_ref
from tf1compat.variables import variable_scope as vs

__all__ = ["make_template", "Template", "EagerTemplate"]


def make_template(name_: str, func_: Callable[..., Any], create_scope_now_: bool = False,
                  unique_name_: Optional[str] = None, custom_getter_: Any = None,
                  **kwargs: Any) -> "Template":
    """`tf.make_template(name_, func_, create_scope_now_=False, unique_name_=None,
    custom_getter_=None, **kwargs)`: `kwargs` are bound to `func_`."""
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    if executing_eagerly():
        if unique_name_ is not None:
            raise ValueError("unique_name_ cannot be used when eager exeuction is enabled.")
        return EagerTemplate(name_, func_, create_scope_now=create_scope_now_,
                             custom_getter=custom_getter_)
    return Template(name_, func_, create_scope_now=create_scope_now_,
                    unique_name=unique_name_, custom_getter=custom_getter_)


def _skip_common_stack_elements(stacktrace: List[str], base_case: List[str]) -> List[str]:
    for i, (trace, base) in enumerate(zip(stacktrace, base_case)):
        if trace != base:
            return stacktrace[i:]
    return stacktrace[-1:]


class Template:
    """A function whose variables are created on the first call and reused afterwards."""

    def __init__(self, name: str, func: Callable[..., Any], create_scope_now: bool = False,
                 unique_name: Optional[str] = None, custom_getter: Any = None,
                 create_graph_function: bool = False):
        if create_graph_function:
            raise NotImplementedError("make_template with create_graph_function_ is not "
                                      "supported by tf1compat")
        self._func = func
        self._stacktrace = traceback.format_stack()[:-2]
        self._name = name
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        if name is None:
            raise ValueError("name cannot be None.")
        if create_scope_now:
            with vs._pure_variable_scope(
                    self._unique_name or vs._get_unique_variable_scope(self._name),
                    custom_getter=self._custom_getter) as scope:
                self._variable_scope = scope
        else:
            self._variable_scope = None
        self._variables_created = False
        self._first_call = True

    def _call_func(self, args: tuple, kwargs: dict) -> Any:
        try:
            if self._variables_created:
                vars_at_start = len(get_collection_ref(GraphKeys.GLOBAL_VARIABLES))
                trainable_at_start = len(get_collection_ref(GraphKeys.TRAINABLE_VARIABLES))
                result = self._func(*args, **kwargs)
                trainable = get_collection_ref(GraphKeys.TRAINABLE_VARIABLES)
                if trainable_at_start != len(trainable):
                    raise ValueError("Trainable variable created when calling a template after "
                                     "the first time, perhaps you used tf.Variable when you "
                                     "meant tf.get_variable: "
                                     f"{trainable[trainable_at_start:]}")
                del vars_at_start  # TF only logs new non-trainable variables
            elif self._first_call:
                self._first_call = False
                try:
                    result = self._func(*args, **kwargs)
                except BaseException:
                    self._first_call = True
                    raise
                self._variables_created = True
            else:
                result = self._func(*args, **kwargs)
            return result
        except Exception as exc:
            self._add_definition_site(exc)
            raise

    def _add_definition_site(self, exc: Exception) -> None:
        """Appends where the template was made to the message of an error in its call."""
        exc_args = exc.args
        arg0 = exc_args[0] if exc_args else ""
        trace = "".join(_skip_common_stack_elements(self._stacktrace, traceback.format_stack()))
        exc.args = (f"{arg0}\n\noriginally defined at:\n{trace}",) + tuple(exc_args[1:])

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._variable_scope:
            with vs.variable_scope(self._variable_scope, reuse=not self._first_call):
                return self._call_func(args, kwargs)
        with vs.variable_scope(self._unique_name, self._name,
                               custom_getter=self._custom_getter) as scope:
            self._variable_scope = scope
            return self._call_func(args, kwargs)

    @property
    def name(self) -> str:
        return self._name

    @property
    def func(self) -> Callable[..., Any]:
        return self._func

    @property
    def variable_scope(self) -> Optional[vs.VariableScope]:
        return self._variable_scope

    @property
    def variable_scope_name(self) -> Optional[str]:
        if self._variable_scope:
            name = self._variable_scope.name
            return name if not name or name[-1] == "/" else name + "/"
        return None

    @property
    def variables(self) -> list:
        return self.global_variables + self.local_variables

    @property
    def trainable_variables(self) -> list:
        if self._variables_created:
            return get_collection(GraphKeys.TRAINABLE_VARIABLES, self.variable_scope_name)
        return []

    @property
    def non_trainable_variables(self) -> list:
        trainable = set(self.trainable_variables)
        return [x for x in self.global_variables if x not in trainable]

    @property
    def global_variables(self) -> list:
        if self._variables_created:
            return get_collection(GraphKeys.GLOBAL_VARIABLES, self.variable_scope_name)
        return []

    @property
    def local_variables(self) -> list:
        if self._variables_created:
            return get_collection(GraphKeys.LOCAL_VARIABLES, self.variable_scope_name)
        return []

    @property
    def weights(self) -> list:
        return self.variables

    @property
    def trainable_weights(self) -> list:
        return self.trainable_variables

    @property
    def non_trainable_weights(self) -> list:
        return self.non_trainable_variables

    @property
    def var_scope(self) -> Optional[vs.VariableScope]:
        return self._variable_scope


class _EagerTemplateVariableStore:
    """The variable store of one EagerTemplate (sharing the enclosing template's store
    when there is one, as TF nests them)."""

    def __init__(self, variable_scope_name: Optional[str]):
        self._variable_scope_name = variable_scope_name
        default = vs._get_default_variable_store()
        self._store = vs.EagerVariableStore(default if default._store_eager_variables
                                            else None)

    def set_variable_scope_name(self, variable_scope_name: str) -> None:
        self._variable_scope_name = variable_scope_name

    @contextlib.contextmanager
    def as_default(self) -> Iterator[None]:
        try:
            with self._store.as_default():
                yield
        finally:
            # The template's scope lives in the outer store: its sub-scope counts are
            # closed here so the next call's inner scopes get the same names.
            if self._variable_scope_name is None:
                raise RuntimeError("A variable scope must be set before an "
                                   "_EagerTemplateVariableStore object exits.")
            vs.get_variable_scope_store().close_variable_subscopes(self._variable_scope_name)

    def _in_scope(self, variables: list) -> list:
        if self._variable_scope_name is None:
            raise RuntimeError("A variable scope must be set before variables can be "
                               "accessed.")
        return [v for v in variables if v.name.startswith(self._variable_scope_name + "/")]

    def variables(self) -> list:
        return self._in_scope(self._store.variables())

    def trainable_variables(self) -> list:
        return self._in_scope(self._store.trainable_variables())

    def non_trainable_variables(self) -> list:
        return self._in_scope(self._store.non_trainable_variables())


class EagerTemplate(Template):
    """`make_template`'s template under eager execution (TF's EagerTemplate)."""

    def __init__(self, name: str, func: Callable[..., Any], create_scope_now: bool = False,
                 custom_getter: Any = None, create_graph_function: bool = False):
        if not executing_eagerly():
            raise RuntimeError(f"{type(self)} objects can only be used when eager execution "
                               "is enabled, use tf.Template for graph construction")
        super().__init__(name, func, create_scope_now, None, custom_getter,
                         create_graph_function)
        scope_name = self._variable_scope.name if self._variable_scope is not None else None
        self._template_store = _EagerTemplateVariableStore(scope_name)
        self._variable_scope_context_manager: Any = None

    def _call_func(self, args: tuple, kwargs: dict) -> Any:
        try:
            trainable_at_start = self._template_store.trainable_variables()
            result = self._func(*args, **kwargs)
            if self._variables_created:
                trainable = self._template_store.trainable_variables()
                if len(trainable_at_start) != len(trainable):
                    new = [v for v in trainable if all(v is not w for w in trainable_at_start)]
                    raise ValueError("Trainable variable created when calling a template "
                                     "after the first time, perhaps you used tf.Variable "
                                     f"when you meant tf.get_variable: {new}")
            else:
                self._variables_created = True
            return result
        except Exception as exc:
            self._add_definition_site(exc)
            raise

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._variable_scope:
            if not self._variable_scope_context_manager:
                self._variable_scope_context_manager = vs.variable_scope(
                    self._variable_scope, reuse=vs.AUTO_REUSE)
            with self._variable_scope_context_manager, self._template_store.as_default():
                return self._call_func(args, kwargs)
        with vs.variable_scope(self._unique_name, self._name,
                               custom_getter=self._custom_getter) as scope:
            self._variable_scope = scope
            self._template_store.set_variable_scope_name(scope.name)
            with self._template_store.as_default():
                return self._call_func(args, kwargs)

    @property
    def variables(self) -> list:
        return self._template_store.variables() if self._variables_created else []

    @property
    def trainable_variables(self) -> list:
        return self._template_store.trainable_variables() if self._variables_created else []

    @property
    def non_trainable_variables(self) -> list:
        return self._template_store.non_trainable_variables() \
            if self._variables_created else []

    @property
    def global_variables(self) -> list:
        return self.variables

    @property
    def local_variables(self) -> list:
        return []
