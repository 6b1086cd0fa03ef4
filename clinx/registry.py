"""Name -> factory registries, so configs choose parts by name instead of if-chains."""

from __future__ import annotations

from typing import Callable, Generic, Iterator, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """A small named registry.

    >>> conditions = Registry("condition")
    >>> @conditions.register("raw")
    ... def raw(image, mask): return image
    >>> conditions.get("raw") is raw
    True
    """

    def __init__(self, kind: str):
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, name: str, obj: T | None = None):
        """Register ``obj`` under ``name``; usable as a decorator when ``obj`` is omitted."""

        def _add(o: T) -> T:
            if name in self._items and self._items[name] is not o:
                raise KeyError(f"{self.kind} {name!r} is already registered")
            self._items[name] = o
            return o

        if obj is not None:
            return _add(obj)
        return _add

    def get(self, name: str) -> T:
        """The entry called ``name``; a clear error listing the known names otherwise."""
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "(none)"
            raise KeyError(f"unknown {self.kind} {name!r}; known: {known}") from None

    def names(self) -> list[str]:
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._items))


def lazy(module: str, attr: str) -> Callable:
    """A factory that imports ``module.attr`` only when called (keeps heavy deps optional)."""

    def _factory(*args, **kwargs):
        import importlib

        return getattr(importlib.import_module(module), attr)(*args, **kwargs)

    _factory.__name__ = f"lazy_{attr}"
    return _factory
