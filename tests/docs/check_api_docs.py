#!/usr/bin/env python3
"""tests/docs/check_api_docs.py - every public declaration has its reference text.

    check_api_docs.py [--inventory FILE] [--pending FILE] INCLUDE_DIR

Reads every header of INCLUDE_DIR, so headers added later are covered
without touching this script, and fails (exit 1) with one line per gap:

- a header without a /** @file */ block (doxygen then shows none of its
  contents);
- a function declaration without a doxygen block (/** ... */) right before
  it; a function returning doca_error_t whose block names no DOCA_ERROR_*
  code after @return or @retval (the reader must learn what can fail);
- a typedef, an enum or a struct definition without a block, an enumerator
  or struct member without one (before it, or /**< */ after it);
- an opaque struct (only ever declared, never defined) documented nowhere;
- with --inventory, a row of the API inventory whose function no header
  declares with a block.

--pending names headers whose reference text is still being written: their
gaps are counted, not failed, and a pending header without a gap fails so
that the list only shrinks.
"""
import argparse
import glob
import os
import re
import sys

DOC_START = ('/**', '/*!', '///', '//!')
MARKERS = re.compile(r'\b(DOCA_STABLE|DOCA_EXPERIMENTAL|DOCA_DEPRECATED|DOCA_USED)\b')


def strip_cplusplus_guards(text):
    """The extern "C" braces are not declarations."""
    return re.sub(r'#ifdef __cplusplus\n.*?#endif[^\n]*\n', '\n', text, flags=re.S)


def items(text):
    """Split a header into comments, preprocessor lines and statements.

    Yields (kind, text, line): kind is 'doc', 'comment', 'pp' or 'stmt'.  A
    statement runs to the ';' that ends it at brace and parenthesis depth 0.
    """
    i, n, line = 0, len(text), 1
    stmt, stmt_line, depth = [], None, 0
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            body = text[i:end]
            if depth == 0 and not ''.join(stmt).strip():
                yield ('doc' if body.startswith(DOC_START) else 'comment'), body, line
            else:
                stmt.append(body)
            line += body.count('\n')
            i = end
            continue
        if text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            body = text[i:end]
            if depth == 0 and not ''.join(stmt).strip():
                yield ('doc' if body.startswith(DOC_START) else 'comment'), body, line
            else:
                stmt.append(body)
            i = end
            continue
        if c == '#' and depth == 0 and not ''.join(stmt).strip():
            end = i
            while True:
                end = text.find('\n', end)
                if end < 0 or text[end - 1] != '\\':
                    break
                end += 1
            end = n if end < 0 else end
            yield 'pp', text[i:end], line
            line += text[i:end].count('\n')
            i = end
            continue
        if c == '\n':
            line += 1
        if not c.isspace() and stmt_line is None:
            stmt_line = line
        stmt.append(c)
        if c in '({':
            depth += 1
        elif c in ')}':
            depth -= 1
            if c == '}' and depth == 0 and '(' in ''.join(stmt).split('{')[0]:
                yield 'stmt', ''.join(stmt), stmt_line  # an inline function's definition
                stmt, stmt_line = [], None
        elif c == ';' and depth == 0:
            yield 'stmt', ''.join(stmt), stmt_line
            stmt, stmt_line = [], None
        i += 1


def function_name(stmt):
    """Name of the function a statement declares, or None."""
    flat = ' '.join(MARKERS.sub(' ', stmt).split())
    if flat.startswith(('typedef', 'struct', 'enum', 'union')) and '(' not in flat.split('{')[0]:
        return None
    if flat.startswith('typedef'):
        return None
    if '{' in flat:
        head = flat.split('{')[0]
        if '(' not in head:
            return None
        flat = head
    m = re.match(r'[^(]*?\b([A-Za-z_]\w*)\s*\(', flat)
    if not m or re.search(r'\(\s*\*', flat.split(m.group(1))[0] + '('):
        return None
    return m.group(1)


def documented_members(body):
    """(member, documented) for each enumerator or field of a { } body."""
    out = []
    inner = body[body.find('{') + 1:body.rfind('}')]
    parts = re.split(r'(/\*\*<.*?\*/|/\*\*.*?\*/|/\*.*?\*/|//[^\n]*|[,;])', inner, flags=re.S)
    pending_doc = False
    last = None
    for part in parts:
        if part is None or not part.strip():
            continue
        if part.startswith('/**<') or part.startswith('//!<') or part.startswith('///<'):
            if last is not None:
                out[last] = (out[last][0], True)
            continue
        if part.startswith(DOC_START):
            pending_doc = True
            continue
        if part.startswith(('/*', '//')):
            continue
        if part in ',;':
            continue
        name = re.findall(r'[A-Za-z_]\w*', part.split('=')[0].split('[')[0].split(':')[0])
        if not name:
            continue
        out.append((name[-1], pending_doc))
        last = len(out) - 1
        pending_doc = False
    return out


def check_header(path, problems, declared, opaque, defined, documented_structs):
    text = strip_cplusplus_guards(open(path, encoding='utf-8').read())
    base = os.path.basename(path)
    if not re.search(r'/\*\*(?:(?!\*/).)*?@file\b', text, re.S):
        # without it doxygen lists none of the header's macros and functions
        problems.append('%s: no /** @file */ block describing the header' % base)
    prev_doc = None
    for kind, body, line in items(text):
        if kind == 'doc':
            prev_doc = body
            continue
        if kind in ('comment', 'pp'):
            prev_doc = None
            continue
        doc, prev_doc = prev_doc, None
        flat = ' '.join(body.split())
        for name in re.findall(r'@struct\s+(\w+)', doc or ''):
            documented_structs.add(name)
        m = re.fullmatch(r'struct (\w+) ?;', flat)
        if m:
            opaque.add(m.group(1))
            if doc:
                documented_structs.add(m.group(1))
            continue
        fn = function_name(body)
        if fn:
            declared[fn] = bool(doc)
            if not doc:
                problems.append('%s:%d: function %s has no documentation block' % (base, line, fn))
            elif re.match(r'\s*(DOCA_\w+\s+)*doca_error_t\b', MARKERS.sub(' ', body)) and \
                    not re.search(r'@(return|retval)[\s\S]*DOCA_ERROR_', doc):
                problems.append('%s:%d: %s returns doca_error_t but its block names no DOCA_ERROR_* '
                                'after @return/@retval' % (base, line, fn))
            continue
        m = re.match(r'(typedef\s+)?(struct|enum|union)\s+(\w+)\s*\{', flat)
        what = None
        if m:
            what = '%s %s' % (m.group(2), m.group(3))
            defined.add(m.group(3))
            if doc:
                documented_structs.add(m.group(3))
            for member, ok in documented_members(body):
                if not ok:
                    problems.append('%s:%d: %s: member %s has no documentation' % (base, line, what, member))
        elif flat.startswith('typedef'):
            what = 'typedef ' + (re.findall(r'\(\s*\*?\s*(\w+)\)', flat) or re.findall(r'(\w+)\s*;$', flat) or ['?'])[0]
        if what and not doc:
            problems.append('%s:%d: %s has no documentation block' % (base, line, what))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--inventory')
    ap.add_argument('--pending')
    ap.add_argument('include_dir')
    args = ap.parse_args()
    pending = set()
    if args.pending:
        for row in open(args.pending, encoding='utf-8'):
            row = row.split('#')[0].strip()
            if row:
                pending.add(row)
    headers = sorted(glob.glob(os.path.join(args.include_dir, '*.h')))
    if not headers:
        sys.exit('check_api_docs.py: no header in ' + args.include_dir)
    problems, declared, opaque, defined, documented_structs = [], {}, set(), set(), set()
    per_header = {}
    for h in headers:
        mine = []
        check_header(h, mine, declared, opaque, defined, documented_structs)
        per_header[os.path.basename(h)] = mine
    for name in sorted(opaque - defined - documented_structs):
        owner = next((b for b, _ in per_header.items()
                      if re.search(r'^struct %s;' % name, open(os.path.join(args.include_dir, b)).read(), re.M)), '?')
        per_header.setdefault(owner, []).append('%s: opaque struct %s is documented nowhere '
                                                '(a block before one declaration, or @struct)' % (owner, name))
    failed = 0
    for base, mine in sorted(per_header.items()):
        if base in pending:
            if not mine:
                print('FAIL %s is listed as pending but is fully documented: remove it from the list' % base)
                failed += 1
            else:
                print('pending %s: %d gap(s)' % (base, len(mine)))
            continue
        for p in mine:
            print('FAIL ' + p)
        failed += len(mine)
    for p in pending - set(per_header):
        print('FAIL pending list names %s, which is not a header' % p)
        failed += 1
    if args.inventory:
        for row in open(args.inventory, encoding='utf-8'):
            cols = row.split()
            if row.startswith('#') or len(cols) < 3:
                continue
            fn = cols[1]
            if fn not in declared:
                print('FAIL inventory function %s is declared in no header' % fn)
                failed += 1
    checked = [b for b in per_header if b not in pending]
    print('%d header(s) checked, %d pending, %d function(s) declared, %d problem(s)'
          % (len(checked), len(pending), len(declared), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
