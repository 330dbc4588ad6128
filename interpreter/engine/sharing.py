"""Lists and maps shared between a rule's locals and the game's variables stay shared through a clone and
through a save, so a copied or reloaded game goes on exactly like the original.

A rule may hold one of the game's own lists in a local (``let hand = me.hand``, a loop over records) when
it stops for a decision. A plain deep copy would give the local its own list, and the copy would then
diverge from the original. The same holds for the values of a pending decision's options (a record of the
game's own list). Clones copy variables, locals and pending values with one memo; saves write a list or
map met a second time as ``{"$ref": path}`` to where it was first written, and maps whose keys are not
text (a player's number) as ``{"$map": [[key, value], ...]}`` because JSON keys are always text.
"""
from __future__ import annotations


def copy_shared(value, memo: dict):
    """A deep copy that copies each list or map once, however many places hold it."""
    t = type(value)
    if t is not list and t is not dict:
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    if t is list:
        out: list = []
        memo[id(value)] = out
        out.extend(copy_shared(v, memo) if type(v) in (list, dict) else v for v in value)
        return out
    out_map: dict = {}
    memo[id(value)] = out_map
    for k, v in value.items():
        out_map[k] = copy_shared(v, memo) if type(v) in (list, dict) else v
    return out_map


class Encoder:
    """Encodes several parts of a state for JSON, sharing kept: a list or map met a second time, in any
    part, is written as ``{"$ref": path}`` to the place it was first written."""

    def __init__(self):
        self.seen: dict = {}

    def encode(self, value, path: list):
        t = type(value)
        if t is not list and t is not dict:
            return value
        first = self.seen.get(id(value))
        if first is not None:
            return {"$ref": first}
        self.seen[id(value)] = path
        if t is list:
            return [self.encode(v, path + [i]) for i, v in enumerate(value)]
        if all(type(k) is str for k in value):
            return {k: self.encode(v, path + [k]) for k, v in value.items()}
        return {"$map": [[k, self.encode(v, path + [k])] for k, v in value.items()]}


class _Ref:
    __slots__ = ("path",)

    def __init__(self, path):
        if not isinstance(path, list) or not path:
            raise ValueError("a reference needs a path")
        self.path = path


def decode(value):
    """Encoded data back to values; references stay placeholders until ``resolve``."""
    t = type(value)
    if t is list:
        return [decode(v) for v in value]
    if t is not dict:
        return value
    if len(value) == 1 and "$ref" in value:
        return _Ref(value["$ref"])
    if len(value) == 1 and "$map" in value:
        return {_key(k): decode(v) for k, v in value["$map"]}
    return {k: decode(v) for k, v in value.items()}


def resolve(value, root: dict):
    """Replace every placeholder inside ``value`` by the object its path leads to from ``root``."""
    if type(value) is _Ref:
        return follow(root, value.path)
    if type(value) is list:
        for i, v in enumerate(value):
            if type(v) in (_Ref, list, dict):
                value[i] = resolve(v, root)
    elif type(value) is dict:
        for k, v in value.items():
            if type(v) in (_Ref, list, dict):
                value[k] = resolve(v, root)
    return value


def _key(k):
    if type(k) in (list, dict):
        raise ValueError("a map key must be a number or text")
    return k


def follow(root, path: list):
    value = root
    for step in path:
        value = value[step]
    if type(value) is _Ref:
        raise ValueError("a reference leads to another reference")
    return value
