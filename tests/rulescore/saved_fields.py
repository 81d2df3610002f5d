"""Walking a saved format's declaration (rulescore.saved): every field with its value in a
sample, the wrong values each field must refuse with the words its message must use, and a
sample with one field replaced. The engine's tests (a saved fight refuses a wrong value in any
field by name) and the tools' hostile-input tests (the same through a tool's upload) share it."""

from __future__ import annotations

import json

from rulescore import saved

# Hostile text a file or a reader may bring (the tools' tests check it reaches the page escaped).
PAYLOADS = ("<img src=x onerror=alert(1)>", "<script>alert(1)</script>",
            "\"'><svg onload=alert(1)>", "</td></tr></table><xss>", "&lt;b&gt;x&lt;/b&gt;",
            "<b onmouseover=alert(1)>x</b>", "javascript:alert(1)//<a href=x>")

Path = tuple  # of ("key", name) | ("item", index) | ("map", key)


def shown_path(path: Path) -> str:
    """A path as the checker names it: injuries[2].treatment, used['Vela'][1]."""
    text = ""
    for kind, key in path:
        text += (f".{key}" if text else key) if kind == "key" else \
            f"[{key + 1}]" if kind == "item" else f"[{key!r}]"
    return text or "the file"


def fields(spec: saved.Spec, data: object, at: Path = ()):
    """(path, spec, value there) for every field of a declaration, located in a sample."""
    yield at, spec, data
    if isinstance(spec, saved.Record) and isinstance(data, dict):
        for key, inner in spec.fields.items():
            if key in data:
                yield from fields(inner, data[key], at + (("key", key),))
            else:
                yield at + (("key", key),), inner, None
    elif isinstance(spec, saved.ListOf) and isinstance(data, list) and data:
        for i in sorted({0, len(data) - 1}):   # the first and the last entry
            yield from fields(spec.item, data[i], at + (("item", i),))
    elif isinstance(spec, saved.Pair) and isinstance(data, list):
        yield from fields(spec.first, data[0], at + (("item", 0),))
        yield from fields(spec.second, data[1], at + (("item", 1),))
    elif isinstance(spec, saved.MapOf) and isinstance(data, dict) and data:
        key = next(iter(data))
        yield from fields(spec.value, data[key], at + (("map", key),))


def wrong_values(spec: saved.Spec, sample: object) -> list[tuple[object, str]]:
    """Values a field of *spec* must refuse, each with the words its message must use."""
    if isinstance(spec, saved.Maybe):
        return [v for v in wrong_values(spec.inner, sample) if v[0] is not None]
    if isinstance(spec, saved.Int):
        says = f"must be a whole number from {spec.minimum} to {spec.maximum}"
        return [(v, says) for v in (spec.minimum - 1, spec.maximum + 1, 10**14, True, 1.5,
                                    "7", None, [], PAYLOADS[0])]
    if isinstance(spec, saved.Flag):
        return [(v, "must be true or false") for v in ("yes", 1, 0, None, PAYLOADS[1])]
    if isinstance(spec, saved.Text):
        out = [(v, "must be text") for v in (5, None, True, [], {})]
        out.append(("x" * (spec.max_length + 1),
                    f"must be at most {spec.max_length} characters long"
                    if spec.choices is None else "must be one of"))
        if spec.choices is not None:
            out += [(p, "must be one of") for p in PAYLOADS[:3]]
        else:  # a lone surrogate parses, but could never be sent to the page
            out.append(("x\ud800", "must be text, got a broken character at position 2"))
        if not spec.blank:
            out += [("", "must be a non-empty text"), ("   ", "must be a non-empty text")]
        return out
    if isinstance(spec, saved.ListOf):
        out = [(v, "must be a list") for v in ("soon", {}, None, 3)]
        if isinstance(sample, list) and sample:
            out.append(([sample[0]] * (spec.max_items + 1), "must hold"))
        if spec.min_items:
            out.append(([], "must hold"))
        return out
    if isinstance(spec, saved.Pair):
        return [(v, "must be a list of two") for v in ([1], [1, 2, 3], "ab", None)]
    if isinstance(spec, saved.MapOf):
        return [(v, "must be an object") for v in ([], "x", None)]
    out = [(v, "must be an object") for v in ("x", [], None)]
    if isinstance(sample, dict):
        out.append(({**sample, "onerror": 1}, "has a field this book does not know"))
        for key in spec.fields:
            if key in sample and key not in spec.optional:
                out.append(({k: v for k, v in sample.items() if k != key},
                            f"is missing the field {key!r}"))
                break
    return out


def body_of(fmt: saved.SavedFormat, data: dict) -> dict:
    if fmt.envelope:
        return data[fmt.envelope]
    return {k: v for k, v in data.items() if k not in ("format", "version")}


def put(fmt: saved.SavedFormat, text: str, path: Path, value: object) -> str:
    data = json.loads(text)
    target = data[fmt.envelope] if fmt.envelope else data
    if not path:
        data = {"format": fmt.name, "version": fmt.version,
                **({fmt.envelope: value} if fmt.envelope else
                   value if isinstance(value, dict) else {"body": value})}
        return json.dumps(data)
    for _, key in path[:-1]:
        target = target[key]
    target[path[-1][1]] = value
    return json.dumps(data)
