"""Running ``unosim`` in-process for the tests of every room: the exit code and both
streams, and the one-line error every bad input must give."""

from __future__ import annotations

import pytest

from unosim.cli import main


def invoke(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    """Run ``main(argv)`` in-process; return (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    code = exc.value.code
    code = 0 if code is None else code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2, (code, out, err)
    assert "Traceback" not in out + err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith("unosim: error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
