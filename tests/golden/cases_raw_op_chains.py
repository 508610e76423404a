"""Golden cases: op types whose values are handles (TensorLists, Optionals, stacks) or
dead/live tensors (Switch, Merge), which one op row cannot check, called through
`tf.raw_ops` in chains that end in comparable values. tests/golden/op_exempt.py names
these cases for them."""

from tests.golden.harness import catch, describe


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def case_tensor_list_ops(tf):
    raw = tf.raw_ops
    t = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    shape = tf.constant([2], tf.int32)
    lst = raw.TensorListFromTensor(tensor=t, element_shape=shape)
    lst = raw.TensorListSetItem(input_handle=lst, index=1, item=tf.constant([7.0, 8.0]))
    item = raw.TensorListGetItem(input_handle=lst, index=1, element_shape=shape,
                                 element_dtype=tf.float32)
    stacked = raw.TensorListStack(input_handle=lst, element_shape=shape,
                                  element_dtype=tf.float32, num_elements=-1)
    gathered = raw.TensorListGather(input_handle=lst, indices=[2, 0], element_shape=shape,
                                    element_dtype=tf.float32)
    pushed = raw.TensorListPushBack(input_handle=lst, tensor=tf.constant([9.0, 10.0]))
    rest, popped = raw.TensorListPopBack(input_handle=pushed, element_shape=shape,
                                         element_dtype=tf.float32)
    reserved = raw.TensorListReserve(element_shape=shape, num_elements=2,
                                     element_dtype=tf.float32)
    reserved = raw.TensorListSetItem(input_handle=reserved, index=0,
                                     item=tf.constant([1.0, 1.0]))
    empty = raw.EmptyTensorList(element_shape=shape, max_num_elements=-1,
                                element_dtype=tf.float32)
    one = raw.TensorListPushBack(input_handle=empty, tensor=tf.constant([4.0, 5.0]))
    values = {
        "item": item, "stacked": stacked, "gathered": gathered, "popped": popped,
        "lengths": [raw.TensorListLength(input_handle=h) for h in (lst, pushed, rest,
                                                                   reserved, empty, one)],
        "element_shape": raw.TensorListElementShape(input_handle=lst, shape_type=tf.int32),
        "one": raw.TensorListStack(input_handle=one, element_shape=shape,
                                   element_dtype=tf.float32, num_elements=1)}
    bad_index = raw.TensorListGetItem(input_handle=lst, index=5, element_shape=shape,
                                      element_dtype=tf.float32)
    empty_pop = raw.TensorListPopBack(input_handle=empty, element_shape=shape,
                                      element_dtype=tf.float32)[1]
    return {"vals": _run(tf, values),
            "shapes": [describe(x) for x in (item, stacked, gathered, popped, lst)],
            "types": [x.op.type for x in (lst, item, stacked, gathered, pushed, popped,
                                          reserved, empty)],
            "bad": [catch(lambda: _run(tf, bad_index)), catch(lambda: _run(tf, empty_pop))]}


def case_optional_ops(tf):
    raw = tf.raw_ops
    some = raw.OptionalFromValue(components=[tf.constant(3), tf.constant([1.0, 2.0])])
    none = raw.OptionalNone()
    got = raw.OptionalGetValue(optional=some, output_types=[tf.int32, tf.float32],
                               output_shapes=[[], [2]])
    empty = raw.OptionalGetValue(optional=none, output_types=[tf.int32],
                                 output_shapes=[[]])
    return {"vals": _run(tf, {"has": [raw.OptionalHasValue(optional=some),
                                      raw.OptionalHasValue(optional=none)],
                              "got": got}),
            "shapes": [describe(x) for x in (some, none) + tuple(got)],
            "bad": catch(lambda: _run(tf, empty))}


def case_stack_ops(tf):
    raw = tf.raw_ops
    handle = raw.StackV2(max_size=-1, elem_type=tf.float32, stack_name="stack")
    push = raw.StackPushV2(handle=handle, elem=tf.constant([1.0, 2.0]))
    with tf.control_dependencies([push]):
        push2 = raw.StackPushV2(handle=handle, elem=tf.constant([3.0, 4.0]))
    with tf.control_dependencies([push2]):
        pop = raw.StackPopV2(handle=handle, elem_type=tf.float32)
    with tf.control_dependencies([pop]):
        pop2 = raw.StackPopV2(handle=handle, elem_type=tf.float32)
    with tf.control_dependencies([pop2]):
        close = raw.StackCloseV2(handle=handle)
    fresh = raw.StackV2(max_size=-1, elem_type=tf.float32)
    with tf.Session() as sess:
        vals = sess.run([pop, pop2, push2])
        closed = sess.run(close)
        empty = catch(lambda: sess.run(raw.StackPopV2(handle=fresh, elem_type=tf.float32)))
    return {"vals": vals, "closed": closed is None, "empty": empty,
            "shapes": [describe(x) for x in (handle, push, pop)],
            "types": [close.type]}


def case_switch_merge(tf):
    raw = tf.raw_ops
    x = tf.constant([1.0, 2.0])
    pred = tf.placeholder(tf.bool, [])
    false, true = raw.Switch(data=x, pred=pred)
    merged = raw.Merge(inputs=[false * 2.0, true * 3.0])
    trigger = raw.ControlTrigger()
    grad = tf.gradients(tf.reduce_sum(merged.output * [1.0, -2.0]), x)[0]
    with tf.Session() as sess:
        on = sess.run([merged.output, merged.value_index, grad, true], {pred: True})
        off = sess.run([merged.output, merged.value_index, grad, false], {pred: False})
        dead = catch(lambda: sess.run(true, {pred: False}))
        ran = sess.run(trigger) is None
    return {"on": on, "off": off, "dead": dead, "trigger": ran,
            "shapes": [describe(x) for x in (false, true, merged.output,
                                             merged.value_index)],
            "types": [merged.output.op.type, trigger.type]}

