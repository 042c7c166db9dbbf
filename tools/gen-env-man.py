#!/usr/bin/env python3
"""tools/gen-env-man.py docs/environment.md OUT - softdoca-env(7) from the docs.

The table of docs/environment.md is the one list of softdoca's knobs; the
manual page is generated from it at build time so the two never disagree.
Each row `| `NAME` | default | effect |` becomes one entry.  A man reader has
no README, so a row that sends the reader to a README section ("see
Devices") is refused: name a file of docs/ instead.
"""
import re
import sys


def roff_text(text):
    """Markdown inline text to roff: `code` in bold, escapes for roff."""
    text = text.replace('\\', '\\e')
    parts = re.split(r'(`[^`]*`)', text)
    out = []
    for part in parts:
        if part.startswith('`') and part.endswith('`') and len(part) >= 2:
            out.append('\\fB' + part[1:-1].replace('-', '\\-') + '\\fR')
        else:
            out.append(part)
    line = ''.join(out)
    # The page stands alone: a pointer into the README ("(see Devices)", a
    # link to one of its sections) means nothing to a man reader, so it goes;
    # other links keep their words.
    line = re.sub(r'\s*\(see [^()]*\)', '', line)
    line = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', line)
    if line.startswith(('.', "'")):
        line = '\\&' + line
    return line


# "(see Devices)", "see the README": pointers a manual page cannot follow
README_POINTER = re.compile(r'\(see [A-Z][a-z]+[^)]*\)|README')


def rows(table_file):
    for line in open(table_file, encoding='utf-8').read().splitlines():
        if not line.startswith('| `'):
            continue
        if README_POINTER.search(line):
            sys.exit('gen-env-man.py: a row points to a README section a man reader does not have: '
                     + line[:80])
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) < 3:
            continue
        name = cells[0].strip('`')
        yield name, cells[1], ' | '.join(cells[2:])


def main():
    table_file, out = sys.argv[1], sys.argv[2]
    entries = list(rows(table_file))
    if not entries:
        sys.exit('gen-env-man.py: no rows in the table of ' + table_file)
    with open(out, 'w', encoding='utf-8') as f:
        f.write('.\\" Generated from docs/environment.md by tools/gen-env-man.py.\n')
        f.write('.TH SOFTDOCA-ENV 7 "" "softdoca" "softdoca"\n')
        f.write('.SH NAME\nsoftdoca-env \\- environment variables that change how softdoca behaves\n')
        f.write('.SH DESCRIPTION\n')
        f.write('softdoca implements the NVIDIA DOCA DMA programming model on ordinary Linux machines. '
                'A program needs none of these variables to run; each one changes a default of the '
                'emulation. They are read by the softdoca libraries, so they apply to every program '
                'linked against them, softdoca\'s tools included.\n')
        f.write('.SH ENVIRONMENT\n')
        for name, default, effect in entries:
            f.write('.TP\n.B %s\n' % name)
            f.write('Default: %s.\n.br\n%s\n' % (roff_text(default), roff_text(effect)))
        f.write('.SH SEE ALSO\n')
        f.write('.BR softdoca-caps (1),\n.BR softdoca-bench (1),\n.BR softdoca-trace (1),\n'
                '.BR doca_caps (1),\n.BR doca_bench (1);\n')
        f.write('docs/environment.md and the rest of docs/ in the softdoca documentation folder '
                '(share/doc/softdoca under the installation prefix; /usr/share/doc/softdoca '
                'with the Debian packages).\n')


if __name__ == '__main__':
    main()
