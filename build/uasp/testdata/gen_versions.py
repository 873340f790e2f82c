# Regenerates version_vectors.json from version_cases.yaml.txt with the real
# PyYAML and the spec's calculate_version (uasp.md 3.3). Not run by the
# tests (CI has no Python); run it by hand when adding cases:
#   python3 gen_versions.py > version_vectors.json
import hashlib, json, sys, yaml

def calculate_version(skill_dict):
    # Remove version field for calculation
    skill_copy = {k: v for k, v in skill_dict.items() if k != 'meta'}
    skill_copy['meta'] = {k: v for k, v in skill_dict['meta'].items() if k != 'version'}

    # Normalize to JSON with sorted keys
    normalized = json.dumps(skill_copy, sort_keys=True, separators=(',', ':'))

    # Calculate hash and truncate
    full_hash = hashlib.sha256(normalized.encode()).hexdigest()
    return full_hash[:8]

cases, name, buf = [], None, []
for line in open("version_cases.yaml.txt", encoding="utf-8").read().split("\n"):
    if line.startswith("=== "):
        if name: cases.append((name, "\n".join(buf).rstrip("\n") + "\n"))
        name, buf = line[4:], []
    elif name is not None:
        buf.append(line)
if name: cases.append((name, "\n".join(buf).rstrip("\n") + "\n"))
out = []
for name, src in cases:
    doc = yaml.safe_load(src)
    out.append({"name": name, "yaml": src, "version": calculate_version(doc)})
json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
print()
