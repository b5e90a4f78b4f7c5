"""The --json documents the tests made (tests/cli/fvjson's log): each
one JSON document, no key twice in one object, an exit code that agrees
with it, and, when a schema is given, valid against it. Prints one line
per document that is not, and exits 1 if any; exits 3 when a schema is
given and python3-jsonschema is not installed (the documents still
checked)."""
import json
import sys


class Duplicate(Exception):
    pass


def no_duplicates(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise Duplicate(key)
        seen.add(key)
    return dict(pairs)


def kind_of(doc):
    """The document kind the schema's anyOf should take (for a message
    that says what is wrong in it, not only that no kind fits)."""
    if not isinstance(doc, dict):
        return None
    if doc.get('result') == 'error' and 'device' not in doc:
        return 'error_document'
    if set(doc) == {'result', 'error', 'exit_code'}:
        return 'done_document'
    if 'root_hash' in doc and 'format' in doc and 'base64' in doc:
        return 'sign_document'
    if 'active' in doc:
        return 'status_document'
    if 'image' in doc and 'partitions' in doc:
        return 'image_document'
    if 'machine' in doc:
        return 'bench_document'
    if 'descriptors' in doc:
        return 'avb_info_document'
    if list(doc) == ['partitions']:
        return 'avb_digests_document'
    return 'pair_document'


def exit_code_disagrees(doc, rc):
    """Why the command's exit code rc disagrees with its document, or
    None: the document's exit_code is rc; a result "ok" is exit 0 and any
    other result is not; a document with neither (dump, bench, status) is
    printed by a run that succeeded."""
    if rc is None or not isinstance(doc, dict):
        return None
    if 'exit_code' in doc and doc['exit_code'] != rc:
        return 'exit code %d, the document says %r' % (rc, doc['exit_code'])
    if 'result' in doc:
        if (doc['result'] == 'ok') != (rc == 0):
            return 'exit code %d with the result %r' % (rc, doc['result'])
    elif 'exit_code' not in doc and rc != 0:
        return 'exit code %d with a document that says no failure' % rc
    return None


def main():
    log = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
    validator = None
    missing = False
    if len(sys.argv) > 2:
        try:
            import jsonschema  # python3-jsonschema
            import jsonschema.exceptions
        except ImportError:
            missing = True
        else:
            schema = json.load(open(sys.argv[2]))
            validator = jsonschema.Draft202012Validator(schema)
            kinds = {}
            for name in schema['$defs']:
                if name.endswith('_document'):
                    one = dict(schema, anyOf=[{'$ref': '#/$defs/' + name}])
                    kinds[name] = jsonschema.Draft202012Validator(one)
    bad = 0
    records = [r for r in log.split('\x1d') if r]
    for record in records:
        args, _, text = record.partition('\x1e')
        text, _, code = text.partition('\x1f')
        rc = int(code) if code.strip().isdigit() else None
        words = args.split()
        if set(words) & {'--help', '-?', '--usage', '--version', '-V'} or \
                [w for w in words if not w.startswith('-')][:1] == ['help']:
            continue  # their text, no document
        if not text.strip():
            # no document: only where --json cannot make one (json-c
            # missing), an error said on stderr; or avbtool's --json
            # --output FILE, which writes it to FILE
            action = [w for w in words if not w.startswith('-')][:1]
            if rc == 0 and action != ['avb']:
                print('%s: exit 0 and no document' % args, file=sys.stderr)
                bad += 1
            continue
        try:
            doc = json.loads(text, object_pairs_hook=no_duplicates)
        except Duplicate as e:
            print('%s: the key "%s" twice in one object' % (args, e), file=sys.stderr)
            bad += 1
            continue
        except ValueError as e:
            print('%s: not one JSON document (%s)' % (args, e), file=sys.stderr)
            bad += 1
            continue
        why = exit_code_disagrees(doc, rc)
        if why:
            print('%s: %s' % (args, why), file=sys.stderr)
            bad += 1
        if validator:
            e = jsonschema.exceptions.best_match(validator.iter_errors(doc))
            if e is not None:
                kind = kinds.get(kind_of(doc))
                if kind is not None:
                    e = jsonschema.exceptions.best_match(
                        kind.iter_errors(doc)) or e
                where = '/'.join(str(p) for p in e.absolute_path)
                print('%s: at /%s: %s' % (args, where, e.message[:300]), file=sys.stderr)
                bad += 1
    if bad:
        return 1
    return 3 if missing else 0


sys.exit(main())
