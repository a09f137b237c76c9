"""The ratchet floors of the Python parity checks: lines `CHECKER KEY SHARE` of
eval/parity/floors.txt, the file the Rust checkers read too."""


def floors_of(args, checker):
    """The floors of `checker` from the file after `--floor` in `args` ({} without it)."""
    if "--floor" not in args:
        return {}
    floors = {}
    for line in open(args[args.index("--floor") + 1]):
        parts = line.split()
        if len(parts) == 3 and parts[0] == checker:
            floors[parts[1]] = float(parts[2])
    return floors


def below_floor(checker, key, share, floors, args):
    """Whether `share` fails the check: below its floor, or without a floor when floors were
    asked for. Prints why."""
    floor = floors.get(key)
    if floor is not None and share < floor:
        print(f"FAIL: {checker} {key}: {share:.5f} below the floor {floor}")
        return True
    if "--floor" in args and floor is None:
        print(f"no floor for '{checker} {key}'")
        return True
    return False
