"""public_api.py - the public functions of include/doca_*.h, parsed.

A small parser for softdoca's own headers (not for C in general): comments
and preprocessor lines are dropped, inline function bodies are cut off, and
every remaining declaration `RET doca_NAME(PARAMS);` becomes a Function with
its return type and parameter types.  Used by gen_refusal_audit.py.
"""
import re

ATTR_WORDS = {"DOCA_STABLE", "DOCA_EXPERIMENTAL", "DOCA_DEPRECATED", "DOCA_USED", "extern", "static", "inline"}


class Param:
    def __init__(self, text):
        self.text = " ".join(text.split())
        self.is_fnptr = "(*" in self.text.replace(" ", "")
        m = re.match(r"^(.*?)(\b[A-Za-z_]\w*)?\s*((?:\[\w*\])*)$", self.text)
        if self.is_fnptr:
            self.type = self.text
            self.name = None
        else:
            base, name, arr = m.group(1).strip(), m.group(2), m.group(3)
            # `struct doca_buf *buf` -> type "struct doca_buf *", name "buf";
            # `uint32_t` alone -> type "uint32_t".
            if name is None or (base == "" or base in ("struct", "union", "enum", "const", "unsigned", "signed")):
                base, name = self.text, None
            elif base.endswith(("struct", "union", "enum")):
                base, name = self.text, None
            self.type = (base + (" *" if arr else "")).replace(" *", "*").replace("*", " *").strip()
            self.type = " ".join(self.type.split())
            self.name = name
        self.pointer_depth = 0 if self.is_fnptr else self.type.count("*")
        self.const_target = self.type.startswith("const ")

    def object_struct(self):
        """For `struct doca_X *` (one level): `doca_X`, else None."""
        m = re.match(r"^(?:const )?struct (doca_\w+) \*$", self.type)
        return m.group(1) if m else None


class Function:
    def __init__(self, ret, name, params, header):
        self.ret = " ".join(ret.split())
        self.name = name
        self.params = params
        self.header = header
        self.variadic = any(p.text == "..." for p in params)


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _drop_preprocessor(text):
    """Drop directives, and the C++-only lines (`extern "C" {`) between `#ifdef __cplusplus` and `#endif`."""
    out, cont, cplusplus = [], False, False
    for line in text.split("\n"):
        word = line.strip()
        if word.startswith("#ifdef __cplusplus"):
            cplusplus = True
            continue
        if cplusplus:
            cplusplus = not word.startswith("#endif")
            continue
        if cont or word.startswith("#"):
            cont = line.rstrip().endswith("\\")
            continue
        out.append(line)
    return "\n".join(out)


def _cut_bodies(text):
    """Replace every top-level {...} that follows `)` (a function body) with `;`, drop the others' contents."""
    out, depth, i, n = [], 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == "{":
            if depth == 0:
                prev = "".join(out).rstrip()
                out.append(";" if prev.endswith(")") else "{}")
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    return "".join(out)


def _split_params(text):
    parts, depth, cur = [], 0, ""
    for c in text:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += c == "("
        depth -= c == ")"
        cur += c
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def _drop_attributes(stmt):
    """Remove every `__attribute__((...))`, whatever it nests."""
    while True:
        at = stmt.find("__attribute__")
        if at < 0:
            return stmt
        i = stmt.find("(", at)
        depth, j = 0, i
        while j < len(stmt):
            depth += stmt[j] == "("
            depth -= stmt[j] == ")"
            j += 1
            if depth == 0:
                break
        stmt = stmt[:at] + stmt[j:]


def parse_header(path):
    text = _cut_bodies(_drop_preprocessor(_strip_comments(open(path).read())))
    funcs = []
    for stmt in text.split(";"):
        stmt = " ".join(_drop_attributes(stmt).split())
        if stmt.startswith("typedef") or "(" not in stmt:
            continue
        m = re.match(r"^(.*?)\b(doca_\w+)\s*\((.*)\)$", stmt)
        if not m:
            continue
        words = [w for w in m.group(1).replace("*", " * ").split() if w not in ATTR_WORDS]
        ret = " ".join(words).replace(" *", "*").replace("*", " *").strip()
        if not ret or "extern \"C\"" in stmt or "{" in ret:
            continue
        params = _split_params(m.group(3))
        if params == ["void"]:
            params = []
        funcs.append(Function(ret, m.group(2), [Param(p) for p in params], path))
    return funcs


def parse(paths):
    seen, out = set(), []
    for p in paths:
        for f in parse_header(p):
            if f.name not in seen:
                seen.add(f.name)
                out.append(f)
    return out
