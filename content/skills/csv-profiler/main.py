"""Profile a CSV file: read a JSON request on stdin, write a JSON profile on stdout."""
import csv
import json
import sys


def infer(values):
    kinds = set()
    for v in values:
        if v == "":
            continue
        try:
            int(v)
            kinds.add("integer")
            continue
        except ValueError:
            pass
        try:
            float(v)
            kinds.add("number")
            continue
        except ValueError:
            kinds.add("string")
    if not kinds:
        return "empty"
    if kinds <= {"integer"}:
        return "integer"
    if kinds <= {"integer", "number"}:
        return "number"
    return "string"


def main():
    req = json.load(sys.stdin)
    with open(req["path"], newline="") as f:
        sample = f.read(4096)
        f.seek(0)
        delimiter = req.get("delimiter") or csv.Sniffer().sniff(sample).delimiter
        rows = list(csv.DictReader(f, delimiter=delimiter))
    columns = []
    for name in rows[0].keys() if rows else []:
        values = [r[name] for r in rows]
        columns.append({
            "name": name,
            "type": infer(values[: req.get("sample_rows", 1000)]),
            "missing": sum(1 for v in values if v == ""),
            "distinct": len(set(values)),
        })
    json.dump({"rows": len(rows), "columns": columns}, sys.stdout)


if __name__ == "__main__":
    main()
