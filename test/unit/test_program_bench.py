"""program_bench's choice of the runtime mode a whole program is timed in."""

from ldsopt.measure import program_bench, timing


def test_fastest_mode_is_reported_with_every_mode(monkeypatch):
    times = {(): 120.0, ("--cuda_use_streams=false",): 101.5, ("--cuda_tracing=0",): 118.0}
    monkeypatch.setattr(timing, "RUNTIME_MODES", {"cuda": {"default": (), "graphs": ("--cuda_use_streams=false",),
                                                            "no tracing": ("--cuda_tracing=0",)}})
    monkeypatch.setattr(program_bench, "benchmark",
                        lambda folder, repetitions, min_time, flags=(): {"folder": folder, "us": times[tuple(flags)]})
    said = []
    best = program_bench._fastest_mode("F", "cuda", 3, "0.5s", said.append)
    assert best["us"] == 101.5 and best["mode"] == "graphs" and best["flags"] == ["--cuda_use_streams=false"]
    assert best["modes"] == {"default": 120.0, "graphs": 101.5, "no tracing": 118.0}
    assert said == [" (default): 120.0 us", " (graphs): 101.5 us", " (no tracing): 118.0 us"]
    assert "runtime mode 'graphs' (`--cuda_use_streams=false`)" in program_bench._mode(best)


def test_a_device_without_modes_runs_its_default(monkeypatch):
    calls = []
    monkeypatch.setattr(program_bench, "benchmark",
                        lambda folder, repetitions, min_time, flags=(): calls.append(flags) or {"us": 7.0})
    best = program_bench._fastest_mode("F", "vulkan", 3, "0.05s", lambda line: None)
    assert calls == [()] and best["mode"] == "default" and program_bench._mode(best) == ""


def test_the_stack_section_says_whether_its_values_pass():
    stack = {"layers": 12, "whole": {"ldsopt": {"us": 600.0, "per_layer_us": 50.0}, "iree-default": {"error": "x"}}}
    values = {"layers": 12, "relative_error": 2e-3, "twin_relative_error": 1e-3, "bound": 4e-3, "max_abs": 0.05,
              "passed": True}
    twin = {"stack": {"us": 90.0, "graph_us": 49.0, "graph_awaited_us": 51.0, "values": values}}
    lines = program_bench._stack_lines(stack, twin)
    assert lines[-1].startswith("- values of the 12 layers: PASS (relative error 0.002 against the PyTorch twin in f32")
    del twin["stack"]["values"]  # a folder prepared without its ldsopt stack: no line
    assert not any("values of" in x for x in program_bench._stack_lines(stack, twin))
