"""The flow's nodes. Each one: prep reads the shared store, exec computes, post writes and picks the next action.

The shared store's keys are documented in docs/design.md. Two small bases keep the nodes short:
  Step       tells the run record (and so the terminal) which node is working and how long it took.
  ModelStep  a Step that asks the model; when the model backend fails or keeps giving unusable
             answers, exec_fallback turns that into the "model_failed" action instead of a crash.
"""
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

from pocketflow import BatchNode, Node

from utils.ask_model import InvalidAnswers, ask_for_yaml
from utils.call_llm import ModelBackendError, ModelConfig
from utils.compare import outputs_match
from utils.prompts import conversation, implement_request, revise_request, write_tests_request
from utils.sandbox import Limits, run_batch
from utils.yaml_answer import parse_code_answer, parse_revise_answer, parse_tests_answer


@dataclass(frozen=True)
class Settings:
    model: ModelConfig = field(default_factory=ModelConfig)
    max_iterations: int = 5    # rounds of RunTests; so at most max_iterations - 1 revisions
    min_tests: int = 5         # asked for; small models asked for "comprehensive" tests never stop
    max_tests: int = 8
    answer_attempts: int = 3   # tries per structured answer before the run gives up (exit 3)
    revise_adds_tests: bool = True  # Revise may add tests (up to max_tests), not only correct them
    limits: Limits = field(default_factory=Limits)
    isolation: str = "process"

    def describe(self):
        return {"model": self.model.describe(), "max_iterations": self.max_iterations,
                "min_tests": self.min_tests, "max_tests": self.max_tests,
                "answer_attempts": self.answer_attempts, "revise_adds_tests": self.revise_adds_tests,
                "sandbox": {"isolation": self.isolation, **vars(self.limits)}}


@dataclass
class ModelFailure:
    message: str


class Step(Node):
    working = "working"

    def _run(self, shared):
        record, name = shared["record"], type(self).__name__
        record.event("node_started", say=self.working and f"{name}: {self.working}...", node=name)
        started_s, started = record.elapsed(), time.perf_counter()
        try:
            return super()._run(shared)
        finally:
            record.node_timing(name, started_s, time.perf_counter() - started)


class ModelStep(Step):
    def model_inputs(self, shared):
        """What every model-calling exec needs: the problem, the settings and where to journal calls."""
        return {"problem": shared["problem"], "settings": shared["settings"],
                "on_call": partial(shared["record"].model_call, type(self).__name__)}

    def ask(self, inputs, request, parse):
        settings = inputs["settings"]
        return ask_for_yaml(conversation(inputs["problem"], request), parse, settings.model,
                            inputs["on_call"], settings.answer_attempts)

    def exec_fallback(self, prep_res, exc):
        if isinstance(exc, (ModelBackendError, InvalidAnswers)):
            return ModelFailure(str(exc))
        raise exc

    def model_failed(self, shared, failure):
        shared["status"], shared["message"] = "model_failed", failure.message
        shared["record"].event("model_failed", say=f"{type(self).__name__}: {failure.message}", message=failure.message)
        return "model_failed"


class GenerateTestCases(ModelStep):
    working = "asking the model for test cases"

    def prep(self, shared):
        return self.model_inputs(shared)

    def exec(self, inputs):
        settings = inputs["settings"]
        return self.ask(inputs, write_tests_request(settings.min_tests, settings.max_tests),
                        partial(parse_tests_answer, max_tests=settings.max_tests))

    def post(self, shared, inputs, answer):
        if isinstance(answer, ModelFailure):
            return self.model_failed(shared, answer)
        shared["test_cases"] = answer["test_cases"]
        names = ", ".join(case["name"] for case in answer["test_cases"])
        shared["record"].event("test_cases", say=f"  {len(answer['test_cases'])} test cases: {names}",
                               reasoning=answer["reasoning"], test_cases=answer["test_cases"])
        return "default"


class ImplementFunction(ModelStep):
    working = "asking the model for run_code"

    def prep(self, shared):
        return {**self.model_inputs(shared), "test_cases": shared["test_cases"]}

    def exec(self, inputs):
        return self.ask(inputs, implement_request(inputs["test_cases"]), parse_code_answer)

    def post(self, shared, inputs, answer):
        if isinstance(answer, ModelFailure):
            return self.model_failed(shared, answer)
        shared["function_code"] = answer["function_code"]
        lines = answer["function_code"].count("\n")
        shared["record"].event("function_code", say=f"  run_code written ({lines} lines)",
                               reasoning=answer["reasoning"], function_code=answer["function_code"])
        return "default"


class ParallelBatchNode(BatchNode):
    """A BatchNode whose items run at the same time; each item here is one sandbox process.

    The pool is not waited for when the main thread is interrupted: main.py then kills the running
    sandboxes, which ends the worker threads at once instead of at the batch deadline.
    """

    def _exec(self, items):
        if len(items) <= 1:
            return super()._exec(items)
        pool = ThreadPoolExecutor(max_workers=len(items))
        try:
            return list(pool.map(partial(Node._exec, self), items))
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


class RunTests(Step, ParallelBatchNode):
    working = "running the tests in the sandbox"

    def prep(self, shared):
        tests, settings = shared["test_cases"], shared["settings"]
        shards = min(len(tests), os.cpu_count() or 1)
        return [{"code": shared["function_code"], "indices": list(range(k, len(tests), shards)),
                 "tests": tests[k::shards], "limits": settings.limits, "isolation": settings.isolation}
                for k in range(shards)]

    def exec(self, shard):
        raw = run_batch(shard["code"], [case["input"] for case in shard["tests"]], shard["limits"], shard["isolation"])
        return [(index, judge(result, case["expected"]))
                for index, case, result in zip(shard["indices"], shard["tests"], raw)]

    def post(self, shared, shards, judged):
        results = [result for _, result in sorted(pair for shard in judged for pair in shard)]
        shared["test_results"] = results
        shared["iteration"] += 1
        passed, total = sum(r["passed"] for r in results), len(results)
        limit = shared["settings"].max_iterations
        shared["record"].event("test_run", say=f"  iteration {shared['iteration']}/{limit}: {passed}/{total} tests pass",
                               iteration=shared["iteration"], passed=passed, total=total, results=results)
        if passed == total:
            return "success"
        return "exhausted" if shared["iteration"] >= limit else "failure"


def judge(result, expected):
    """A sandbox result and the verdict on it; the expected value never left this process."""
    return {"passed": bool(result["ok"]) and outputs_match(result["value"], expected),
            "actual": result["repr"], "error_type": result["error_type"], "message": result["message"],
            "traceback": result["traceback"], "timed_out": result["timed_out"], "ms": result["ms"],
            "output": result["output"]}


class Revise(ModelStep):
    working = "asking the model which is wrong, the tests or the code"

    def prep(self, shared):
        return {**self.model_inputs(shared), "test_cases": shared["test_cases"],
                "function_code": shared["function_code"], "test_results": shared["test_results"]}

    def exec(self, inputs):
        request = revise_request(inputs["test_cases"], inputs["function_code"], inputs["test_results"])
        names, settings = [case["name"] for case in inputs["test_cases"]], inputs["settings"]
        max_tests = settings.max_tests if settings.revise_adds_tests else len(names)
        return self.ask(inputs, request, partial(parse_revise_answer, test_names=names, max_tests=max_tests))

    def post(self, shared, inputs, answer):
        if isinstance(answer, ModelFailure):
            return self.model_failed(shared, answer)
        tests = list(shared["test_cases"])
        corrected = [i for i in sorted(answer["test_cases"]) if i < len(tests)]
        added = [i for i in sorted(answer["test_cases"]) if i >= len(tests)]
        for index in corrected:
            case = answer["test_cases"][index]
            tests[index] = {**case, "name": case["name"] or tests[index]["name"]}
        for index in added:  # numbered on from the last test, without gaps (the parser checked)
            case = answer["test_cases"][index]
            tests.append({**case, "name": case["name"] or f"test_{index + 1}"})
        shared["test_cases"] = tests
        if answer["function_code"]:
            shared["function_code"] = answer["function_code"]
        summary = f"  tests corrected: {', '.join(str(i + 1) for i in corrected) or 'none'}"
        summary += f"; tests added: {len(added)}" if added else ""
        summary += f"; code {'rewritten' if answer['function_code'] else 'unchanged'}"
        summary += f"; {len(answer['ignored'])} unusable entries dropped" if answer["ignored"] else ""
        shared["record"].event("revision", say=summary, reasoning=answer["reasoning"], iteration=shared["iteration"],
                               ignored=answer["ignored"],
                               revised_tests={str(i + 1): c for i, c in answer["test_cases"].items()},
                               test_cases=tests, function_code=answer["function_code"])
        return "default"


class Finish(Step):
    """A terminal node: records how the run ended. Having no successors, it ends the flow quietly."""
    working = None  # main.py prints the outcome

    def __init__(self, status):
        super().__init__()
        self.status = status

    def prep(self, shared):
        return {"results": shared.get("test_results") or [], "iteration": shared["iteration"],
                "message": shared.get("message", "")}

    def exec(self, state):
        passed, total = sum(r["passed"] for r in state["results"]), len(state["results"])
        if self.status == "solved":
            return f"solved: all {total} tests pass after {state['iteration']} iteration(s)"
        if self.status == "untested":
            return "code written without tests (single-shot)"
        if self.status == "unsolved":
            return (f"not solved: {total - passed} of {total} tests still fail after "
                    f"{state['iteration']} iteration(s), the budget")
        return f"the model failed: {state['message']}"

    def post(self, shared, state, message):
        shared["status"], shared["message"] = self.status, message
        return None
