import pytest

from clinx.registry import Registry, lazy


def test_register_and_get():
    r = Registry("thing")

    @r.register("a")
    def a():
        return 1

    assert r.get("a") is a
    assert "a" in r and r.names() == ["a"]


def test_unknown_name_lists_known():
    r = Registry("condition")
    r.register("raw", object())
    with pytest.raises(KeyError, match="unknown condition 'nope'.*raw"):
        r.get("nope")


def test_double_registration_refused():
    r = Registry("x")
    r.register("a", 1)
    with pytest.raises(KeyError):
        r.register("a", 2)


def test_lazy_imports_on_call():
    f = lazy("collections", "OrderedDict")
    assert f(a=1)["a"] == 1
