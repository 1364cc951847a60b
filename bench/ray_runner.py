"""--ray: the same problems as Ray tasks, on a local Ray or a cluster (--ray-address / $RAY_ADDRESS).

Ray is optional (pip install -r requirements-ray.txt) and imported only here. Each task runs
bench.harness.run_one_elsewhere on some node: the project travels as the job's working_dir, the run's
files come back as text and the driver writes them and the results line. At most `workers` tasks are
in flight, because the model server, not the cluster, sets the pace. The model endpoint must be
reachable from every node: the embedded server listens on 127.0.0.1, so on a multi-machine cluster
pass --base-url of a server the nodes can reach.
"""
from bench.harness import PROJECT


def run_on_ray(tasks, model, workers, address, on_done, overrides=None):
    import ray  # optional; python -m bench checked that it is installed
    ray.init(address=address, log_to_driver=False, include_dashboard=False,
             runtime_env={"working_dir": PROJECT,
                          "excludes": [".git/", "runs/", "bench-results/", "*.gguf", "__pycache__/"]})
    try:
        solve_remote = ray.remote(num_cpus=1)(_solve)
        queue, in_flight = list(tasks), {}
        while queue or in_flight:
            while queue and len(in_flight) < workers:
                task = queue.pop(0)
                in_flight[solve_remote.remote(task[2], task[3], model, overrides)] = task
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            task = in_flight.pop(ready[0])
            line, files = ray.get(ready[0])
            on_done(task, line, files)
    finally:
        ray.shutdown()


def _solve(problem, strategy, model, overrides=None):
    import os
    import socket

    from bench.harness import run_one_elsewhere
    line, files = run_one_elsewhere(problem, strategy, model, overrides)
    return {**line, "runner": f"ray worker pid {os.getpid()} on {socket.gethostname()}"}, files
