"""Candidate and RemovedSpan write their fields without the dataclass-generated __init__ (a speed-up):
they must stay the same frozen dataclasses, field for field, as the generated form would build."""

import dataclasses
import inspect
import pickle

import pytest

from clinx.text.base import Candidate, RemovedSpan


def _generated(cls):
    """The same fields as a plain frozen dataclass with the generated __init__ (the reference)."""
    fields = [(f.name, f.type, dataclasses.field(default=f.default)) if f.default is not dataclasses.MISSING else (f.name, f.type)
              for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__ + "Plain", fields, frozen=True)


@pytest.mark.parametrize("cls", [Candidate, RemovedSpan])
def test_init_signature_is_the_fields(cls):
    # a field added to the dataclass but not to the hand-written __init__ fails here
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields]


@pytest.mark.parametrize(
    "cls, args, kwargs",
    [
        (Candidate, (3, 9, "NAME", "rule:x"), {}),
        (Candidate, (3, 9, "DATE", "rule:date", 0.98), {}),
        (Candidate, (), {"start": 1, "end": 2, "category": "ID", "source": "context:id", "score": 0.6}),
        (RemovedSpan, ("NAME", "L1", 0, 4, "rule:name_cue", "abcd"), {}),
        (RemovedSpan, (), {"category": "DATE", "level": "L2", "start": 5, "end": 9, "source": "s", "digest": "d", "value": "v"}),
    ],
)
def test_same_state_as_the_generated_init(cls, args, kwargs):
    ours, plain = cls(*args, **kwargs), _generated(cls)(*args, **kwargs)
    assert dataclasses.astuple(ours) == dataclasses.astuple(plain)
    assert vars(ours) == vars(plain)
    assert ours == cls(*args, **kwargs) and hash(ours) == hash(cls(*args, **kwargs))
    assert repr(ours).split("(", 1)[1] == repr(plain).split("(", 1)[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ours.start = 0
    assert pickle.loads(pickle.dumps(ours)) == ours
    first = dataclasses.fields(cls)[0].name
    assert dataclasses.replace(ours, **{first: getattr(ours, first)}) == ours


def test_missing_argument_still_raises():
    with pytest.raises(TypeError):
        Candidate(1, 2, "NAME")
