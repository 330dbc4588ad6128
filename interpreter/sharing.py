"""Lists and maps shared between a rule's locals and the game's variables stay shared through a clone and
through a save, so a copied or reloaded game goes on exactly like the original.

A rule may hold one of the game's own lists in a local (``let hand = me.hand``, a loop over records) when
it stops for a decision. A plain deep copy would give the local its own list, and the copy would then
diverge from the original. Clones copy with one memo for variables and locals together; saves write such
a local as ``{"$ref": path}`` into the variables, and maps whose keys are not text (a player's number)
as ``{"$map": [[key, value], ...]}`` because JSON keys are always text.
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


def container_paths(variables: dict) -> dict:
    """id of every list and map inside the game's variables -> its path from the variables."""
    paths: dict = {}

    def walk(v, path):
        if type(v) is list:
            paths[id(v)] = path
            for i, x in enumerate(v):
                if type(x) in (list, dict):
                    walk(x, path + [i])
        elif type(v) is dict:
            paths[id(v)] = path
            for k, x in v.items():
                if type(x) in (list, dict):
                    walk(x, path + [k])

    for name, value in variables.items():
        walk(value, [name])
    return paths


def encode(value, paths: dict | None = None):
    """JSON-ready data; with ``paths``, a list or map of the game's own becomes a reference to it."""
    t = type(value)
    if t is not list and t is not dict:
        return value
    if paths is not None and id(value) in paths:
        return {"$ref": paths[id(value)]}
    if t is list:
        return [encode(v, paths) for v in value]
    if all(type(k) is str for k in value):
        return {k: encode(v, paths) for k, v in value.items()}
    return {"$map": [[k, encode(v, paths)] for k, v in value.items()]}


def decode(value, variables: dict | None = None):
    """The inverse of encode; references are followed into ``variables`` (already decoded)."""
    t = type(value)
    if t is list:
        return [decode(v, variables) for v in value]
    if t is not dict:
        return value
    if len(value) == 1 and "$ref" in value and variables is not None:
        return follow(variables, value["$ref"])
    if len(value) == 1 and "$map" in value:
        return {_key(k): decode(v, variables) for k, v in value["$map"]}
    return {k: decode(v, variables) for k, v in value.items()}


def _key(k):
    if type(k) in (list, dict):
        raise ValueError("a map key must be a number or text")
    return k


def follow(variables: dict, path: list):
    value = variables[path[0]]
    for step in path[1:]:
        value = value[step]
    return value
