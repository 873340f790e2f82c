# Regenerates vectors.json from cases.yaml.txt with the real PyYAML and
# json.dumps. Not run by the tests; run it by hand when adding cases:
#   python3 gen_vectors.py > vectors.json
import json, yaml, sys, hashlib
cases, name, buf = [], None, []
for line in open("cases.yaml.txt", encoding="utf-8").read().split("\n"):
    if line.startswith("=== "):
        if name: cases.append((name, "\n".join(buf) + "\n"))
        name, buf = line[4:], []
    elif name is not None:
        buf.append(line)
if name: cases.append((name, "\n".join(buf).rstrip("\n") + "\n"))
out = []
for name, src in cases:
    doc = yaml.safe_load(src)
    j = json.dumps(doc, sort_keys=True, separators=(',', ':'))
    out.append({"name": name, "yaml": src, "json": j, "sha256_8": hashlib.sha256(j.encode()).hexdigest()[:8]})
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
print()
