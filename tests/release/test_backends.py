"""The same release from a local process pool and from Ray as from one process: byte for byte."""

from __future__ import annotations

import os
import sys

from clinx.release.runner import release_tree, start_local_ray


def test_process_pool_gives_the_same_release(archive, rkit, tmp_path):
    src, _ = archive
    one = release_tree(src, tmp_path / "one", rkit.fake_parts)
    # fork: the test's stand-in parts are not importable by name in a spawned interpreter
    two = release_tree(src, tmp_path / "two", rkit.fake_parts, workers=2, mp_context="fork")
    assert (two.released, two.failed, two.processed) == (one.released, one.failed, 8)
    assert rkit.tree_bytes(tmp_path / "two") == rkit.tree_bytes(tmp_path / "one")


def test_ray_backend_on_a_local_instance_gives_the_same_release(archive, rkit, tmp_path, monkeypatch):
    import ray
    import ray.cloudpickle

    src, _ = archive
    one = release_tree(src, tmp_path / "one", rkit.fake_parts)
    # Ray workers cannot import the test package: ship the stand-in parts' module by value
    ray.cloudpickle.register_pickle_by_value(sys.modules[rkit.fake_parts.__module__])
    # the head process's wait is read from the environment: keep the setting inside this test
    monkeypatch.delenv("RAY_gcs_server_port_wait_time_s", raising=False)
    start_local_ray(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    assert os.environ["RAY_gcs_server_port_wait_time_s"] == "180"
    try:
        s = release_tree(src, tmp_path / "ray", rkit.fake_parts, backend="ray", workers=1)
        assert ray.is_initialized()  # a Ray instance the caller started is left running
    finally:
        ray.shutdown()
    assert (s.released, s.failed, s.processed) == (one.released, one.failed, 8)
    assert rkit.tree_bytes(tmp_path / "ray") == rkit.tree_bytes(tmp_path / "one")


def test_a_users_ray_head_wait_is_kept(monkeypatch):
    import ray

    started = {}
    monkeypatch.setattr(ray, "init", lambda **kw: started.update(kw))
    monkeypatch.setenv("RAY_gcs_server_port_wait_time_s", "45")
    start_local_ray(num_cpus=2)
    assert os.environ["RAY_gcs_server_port_wait_time_s"] == "45" and started == {"num_cpus": 2}
    monkeypatch.delenv("RAY_gcs_server_port_wait_time_s")
    start_local_ray()
    assert os.environ["RAY_gcs_server_port_wait_time_s"] == "180"
