"""simulate --ray: the same seeded games as Ray tasks give the same results as --workers.

One local Ray instance (2 CPUs) serves the whole module: starting Ray costs seconds."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rulewright.cli.main import app, ray_address, ray_argv
from rulewright.dsl.errors import OptionError

runner = CliRunner()


def test_a_bare_ray_means_a_local_cluster():
    assert ray_argv(["simulate", "g", "--ray"]) == ["simulate", "g", "--ray=local"]
    assert ray_argv(["simulate", "g", "--ray", "--json"]) == ["simulate", "g", "--ray=local", "--json"]
    assert ray_argv(["simulate", "g", "--ray", "auto", "-n", "3"]) == ["simulate", "g", "--ray", "auto", "-n", "3"]
    assert ray_address("local") is None
    assert ray_address("auto") == "auto" and ray_address("ray://head:10001") == "ray://head:10001"
    with pytest.raises(OptionError, match="put the game before --ray"):
        ray_address("tic-tac-toe")


@pytest.mark.parametrize("address, message", [
    ("127.0.0.1:1", "cannot reach a Ray cluster at 127.0.0.1:1"),           # nothing listens there
    ("ray://127.0.0.1:1", "cannot reach a Ray cluster at ray://127.0.0.1:1"),
    ("head:port", "--ray takes auto, HOST:PORT or ray://HOST:PORT, not 'head:port'"),
])
def test_an_unreachable_cluster_is_a_clear_error_at_once(address, message):
    pytest.importorskip("ray", reason="Ray is not installed here: pip install 'rulewright[ray]'")
    result = runner.invoke(app, ["simulate", "tic-tac-toe", "-n", "1", "--ray", address])
    assert result.exit_code == 1 and message in result.output


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="Ray is not installed here: pip install 'rulewright[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
             configure_logging=False)
    yield ray
    ray.shutdown()


def _simulate(*args) -> dict:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("game, extra", [("tic-tac-toe", []), ("biplane", ["-p", "3"])])
def test_ray_gives_the_results_of_workers(ray_cluster, game, extra):
    on_ray = _simulate("simulate", game, *extra, "-n", 6, "--seed", 11, "--json", "--ray", "local")
    local = _simulate("simulate", game, *extra, "-n", 6, "--seed", 11, "--json", "--workers", 1)
    assert on_ray == local and on_ray["games"] == 6 and on_ray["finished"] == 6


@pytest.fixture
def limits_kept():
    """The command line's limits hold for the whole process: put them back after the test."""
    from rulewright.interpreter.engine.limits import current, set_limits
    before = current()
    yield
    set_limits(**before)


def test_ray_keeps_the_limits_of_the_command_line(ray_cluster, limits_kept):
    result = runner.invoke(app, ["--max-steps", "5", "simulate", "tic-tac-toe", "-n", "2", "--seed", "1",
                                 "--ray", "local"])
    plain = runner.invoke(app, ["--max-steps", "5", "simulate", "tic-tac-toe", "-n", "2", "--seed", "1",
                                "--workers", "1"])
    assert result.exit_code == plain.exit_code != 0
    assert result.output == plain.output and "error in the game with seed 1" in result.output
