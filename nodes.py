"""The flow's nodes. Each one: prep reads the shared store, exec computes, post writes and picks the next action.

The shared store's keys are documented in docs/design.md. Two small bases keep the nodes short:
  Step       tells the run record (and so the terminal) which node is working and how long it took.
  ModelStep  a Step that asks the model. Every request checks the run's call and token budget first;
             when the budget is spent, the endpoint fails or the model keeps giving unusable answers,
             exec_fallback turns that into a ModelFailure and post into the "exhausted" or
             "model_failed" action (or, for an optional step, into skipping it). A ModelStep writes
             its usable answer in `use_answer`, its post.
"""
import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

from pocketflow import BatchNode, Node

from utils.ask_model import SAMPLE_TEMPERATURE, InvalidAnswers, ask_for_yaml
from core.budget import BudgetSpent
from utils.call_llm import ModelBackendError
from core.agreement import confirmed_by_guess, guess, settle, summary, support
from utils.code_checks import check_code
from core.constraints import violations
from core.compare import judge
from core.feedback import check_failure, has_trusted, is_protected, is_trusted, is_variant, trusted_label
from utils.lint import describe as describe_lint
from utils.lint import lint
from utils.packages import Installation, PackageCacheError, install, third_party_imports
from core.prompts import (clarify_request, classified_results, conversation, failure_reflection_request,
                           format_results, implement_request, oracle_request, problem_context, reflect_request,
                           revise_request, write_tests_request)
from utils.review_session import review
from utils.runaway import complete_tests, watch_loops, watch_tests
from utils.sandbox import run_batch
from core.statement_examples import says_any_order, statement_examples
from core.variants import variant_cases
from utils.yaml_answer import (parse_code_answer, parse_failure_reflection, parse_question_answer,
                               parse_reflection_answer, parse_revise_answer, parse_tests_answer)


@dataclass
class ModelFailure:
    message: str
    budget_spent: bool = False  # the run's budget, not the model, ended the step
    unusable: bool = False      # the endpoint answered, but never usably


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
    optional = False  # an optional step (a reflection, the question) is skipped when the model fails it
    unusable_ends_unsolved = False  # no usable answer ends the run unsolved, the best version kept (Revise)
    skipped = ("step_skipped", "no usable answer; going on without")  # its record event and what it says

    def model_inputs(self, shared):
        """What every model-calling exec needs: the problem (with the user's docs, any reflection and what
        the person said), the settings, where to journal calls, and the run's budget check."""
        settings, record = shared["settings"], shared["record"]
        return {"problem": problem_context(shared["problem"], settings.docs, shared.get("reflection", ""),
                                           shared.get("guidance", ())),
                "settings": settings, "on_call": partial(record.model_call, type(self).__name__),
                "budget": shared["budget"], "progress": shared.get("progress")}

    def ask(self, inputs, request, parse, temperature=None, max_tokens=None, label="", watch=None, salvage=None):
        """One structured answer (re-asked while unusable), shown live as it streams and stopped early when
        it runs away (utils/runaway.py): a loop always, and what `watch` looks for."""
        settings = inputs["settings"]
        model = settings.model if temperature is None else replace(settings.model, temperature=temperature)
        model = model if max_tokens is None else replace(model, max_tokens=min(model.max_tokens, max_tokens))
        progress, name = inputs["progress"], f"{type(self).__name__}{' ' + label if label else ''}"
        on_progress, end = progress.start(name) if progress else (None, None)

        def journal(call):
            inputs["on_call"](call)
            if progress and call.get("answer") is not None and call.get("error") and call["attempt"] < settings.answer_attempts:
                progress.note(f"{name}: unusable answer ({call['error'].splitlines()[0][:100]}); asking again")
        try:
            return ask_for_yaml(conversation(inputs["problem"], request, settings.allow_install), parse, model, journal,
                                settings.answer_attempts, inputs["budget"], watch or watch_loops(), salvage, on_progress,
                                (lambda text: progress.note(f"{name}: {text}")) if progress else None)
        finally:
            if end:
                end()

    def ask_samples(self, inputs, request, parse, extra=(), max_tokens=None, all_hot=False):
        """`samples` answers to `request`, asked at the same time (up to settings.requests_at_once): the
        first at the configured temperature, the others sampled hotter so they differ. `extra` are more
        (request, parse) pairs asked alongside (the oracle), each answered or None. An unusable sample
        is dropped, as is one the endpoint or the budget refused while another was usable; only when no
        sample is usable does the step fail. `all_hot`: every answer sampled hot (a second draw of the same
        request, whose first answer at the configured temperature would only repeat the first draw's)."""
        settings = inputs["settings"]
        hot = max(settings.model.temperature, SAMPLE_TEMPERATURE)
        first = hot if all_hot else None
        several = settings.samples > 1
        jobs = [partial(self.ask, inputs, request, parse, first if k == 0 else hot, max_tokens,
                        f"candidate {k + 1}" if several else "") for k in range(settings.samples)]
        jobs += [partial(self.ask, inputs, more_request, more_parse, first, max_tokens, more_label)
                 for more_request, more_parse, more_label in extra]
        outcomes = all_at_once(jobs, settings.requests_at_once)
        samples, more = outcomes[:settings.samples], outcomes[settings.samples:]
        answers = [outcome for outcome in samples if not isinstance(outcome, Exception)]
        if not answers:  # the endpoint's or the budget's failure says more than an unusable answer
            raise next((f for f in samples if not isinstance(f, InvalidAnswers)), samples[0])
        return answers, [None if isinstance(outcome, Exception) else outcome for outcome in more]

    def exec_fallback(self, prep_res, exc):
        if isinstance(exc, (ModelBackendError, InvalidAnswers, BudgetSpent)):
            return ModelFailure(str(exc), budget_spent=isinstance(exc, BudgetSpent), unusable=isinstance(exc, InvalidAnswers))
        raise exc

    def post(self, shared, inputs, answer):
        if isinstance(answer, ModelFailure):
            return self.without_answer(shared, answer)
        return self.use_answer(shared, inputs, answer)

    def use_answer(self, shared, inputs, answer):
        raise NotImplementedError

    def without_answer(self, shared, failure):
        """The step got no answer: the budget was spent (-> exhausted), an optional step is skipped
        (-> default), or the model failed (-> model_failed)."""
        name = type(self).__name__
        if failure.budget_spent:
            shared["message"] = failure.message
            shared["record"].event("budget_spent", say=f"{name}: {failure.message}")
            return "exhausted"
        if failure.unusable and self.unusable_ends_unsolved:
            shared["message"] = f"the model gave no usable {self.answer_name}: {failure.message}"
            shared["record"].event("no_usable_answer", say=f"{name}: {failure.message}", message=failure.message)
            return "exhausted"
        if self.optional:
            event, said = self.skipped
            shared["record"].event(event, say=f"  {said}: {failure.message}", node=name)
            return "default"
        shared["status"], shared["message"] = "model_failed", failure.message
        shared["record"].event("model_failed", say=f"{name}: {failure.message}", message=failure.message)
        return "model_failed"


def all_at_once(jobs, at_once):
    """Run the jobs (functions of no argument) in threads, at most `at_once` together; their results, or
    the exception each raised, in order. The threads are daemons and waited for in short steps, so Ctrl-C
    ends the run at once instead of after the slowest model call."""
    outcomes, gate = [None] * len(jobs), threading.Semaphore(at_once)

    def run(index, job):
        with gate:
            try:
                outcomes[index] = job()
            except Exception as exc:  # noqa: BLE001 - handed back to the caller, which decides
                outcomes[index] = exc
    if len(jobs) == 1 or at_once == 1:
        for index, job in enumerate(jobs):
            run(index, job)
        return outcomes
    threads = [threading.Thread(target=run, args=(index, job), daemon=True) for index, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        while thread.is_alive():
            thread.join(0.2)
    return outcomes


# Each answer kind is capped at what it needs (measured on the embedded model, docs/benchmarks.md: code
# answers' median 130 tokens and 90th percentile 300, revisions' 218 and 555), so that a runaway costs
# little. A reflection is a few sentences; one that fails is skipped, not fatal.
REFLECTION_TOKENS = 400
CODE_TOKENS = 900
REVISE_TOKENS = 1200
DRAW_PROMPT_TOKENS = 1000  # a code request's prompt is under this, for the budget check of an optional draw


def answer_tokens_for_tests(count):
    """Room for a short reasoning and `count` tests (a test is 40 to 90 tokens)."""
    return 150 + 110 * count


class ReflectOnProblem(ModelStep):
    working = "asking the model to restate the problem"
    optional, skipped = True, ("reflection_skipped", "no usable restatement; going on without")

    def prep(self, shared):
        return self.model_inputs(shared)

    def exec(self, inputs):
        return self.ask(inputs, reflect_request(), parse_reflection_answer, max_tokens=REFLECTION_TOKENS)

    def use_answer(self, shared, inputs, answer):
        shared["reflection"] = answer
        shared["record"].event("reflection", say="  problem restated", reflection=answer)
        return "default"


class AskPerson(ModelStep):
    """--interactive: before any tests, the model may ask the person one clarifying question (ask_user).
    The answer joins the problem's context for every later call; no question or no answer changes nothing."""
    working = "asking the model whether anything in the problem is unclear"
    optional, skipped = True, ("question_skipped", "no usable question; going on without")

    def prep(self, shared):
        return {**self.model_inputs(shared), "terminal": shared["terminal"]}

    def exec(self, inputs):
        question = self.ask(inputs, clarify_request(), parse_question_answer, max_tokens=REFLECTION_TOKENS)
        answer = inputs["terminal"].ask(f"the model asks: {question}\n(your answer, or Enter to skip) > ") if question else ""
        return {"question": question, "answer": answer or ""}

    def use_answer(self, shared, inputs, asked):
        if asked["answer"]:
            shared["guidance"].append(f"Asked {asked['question']!r}, the user answered: {asked['answer']}")
        said = "answered" if asked["answer"] else "skipped" if asked["question"] else "the model had no question"
        shared["record"].event("question", say=f"  {said}", **asked)
        return "default"


class ReviewWithPerson(Step):
    """--interactive: the person reviews the tests (stage "tests") or a failed round (stage "round") and may
    accept, edit/delete/add tests, edit the code, give feedback for the next prompt, or finish.
    Actions: default (tests stage: go on), revise, rerun (tests or code changed: test again), finish."""
    working = None  # the review prints its own view

    def __init__(self, stage):
        super().__init__()
        self.stage = stage

    def prep(self, shared):
        after_round = self.stage == "round"
        return {"terminal": shared["terminal"], "tests": shared["test_cases"],
                "code": shared["function_code"] if after_round else None,
                "results": shared["test_results"] if after_round else None}

    def exec(self, view):
        return review(view["terminal"], view["tests"], self.stage, view["code"], view["results"])

    def post(self, shared, view, change):
        shared["guidance"].extend(change["feedback"])
        if change["tests"] is not None:
            shared["test_cases"] = _unique_names(change["tests"])
        new = (shared["attempts"].add(change["code"], shared["current"], "user", shared["iteration"])
               if change["code"] else None)
        shared["record"].event("review", stage=self.stage, actions=change["actions"], feedback=change["feedback"],
                               test_cases=shared["test_cases"] if change["tests"] is not None else None,
                               new_attempt=new and new.id)
        if change["finish"]:
            shared["message"] = "finished before any code was written" if self.stage == "tests" else "finished"
            return "finish"
        if self.stage == "tests":
            return "default"
        return "rerun" if change["tests"] is not None or new else "revise"


class GenerateTestCases(ModelStep):
    working = "asking the model for test cases"

    def prep(self, shared):
        return {**self.model_inputs(shared), "statement": shared["problem"]}

    def exec(self, inputs):
        """The person's tests and the statement's examples (trusted, read without the model), then the
        model's own tests, then variants of all their inputs. The person's tests are all kept, whatever
        max_tests says."""
        answer = self.written_tests(inputs)
        settings = inputs["settings"]
        made = variant_cases([case["input"] for case in answer["test_cases"]], inputs["statement"], settings.variants) \
            if settings.agreement else []
        return {**answer, "variants": made}

    def written_tests(self, inputs):
        """The trusted tests and the model's own: {"reasoning", "test_cases", "trusted", "outside"}."""
        settings = inputs["settings"]
        examples = statement_examples(inputs["statement"])[:settings.max_tests] if settings.trust_examples else []
        given = {_key(case["input"]) for case in settings.tests}
        trusted = list(settings.tests) + [case for case in examples if _key(case["input"]) not in given]
        room = settings.max_tests - len(trusted)
        if room <= 0:
            return {"reasoning": "the trusted tests fill the test budget", "test_cases": trusted, "trusted": trusted}
        request = write_tests_request(max(settings.min_tests - len(trusted), 2), room, trusted, bool(given))
        try:
            answer = self.ask(inputs, request, partial(parse_tests_answer, max_tests=room), max_tokens=answer_tokens_for_tests(room),
                              watch=watch_tests(room), salvage=complete_tests)
        except InvalidAnswers as exc:
            if not trusted:
                raise
            return {"reasoning": f"the model's own tests were unusable ({exc}); the statement's examples remain",
                    "test_cases": trusted, "trusted": trusted}
        except BudgetSpent as exc:
            if not trusted:
                raise
            return {"reasoning": str(exc), "test_cases": trusted, "trusted": trusted}
        known = {_key(case["input"]) for case in trusted}
        own, outside = [], []
        for case in answer["test_cases"]:
            broken = violations(inputs["statement"], case["input"]) if settings.agreement else []
            if broken:
                outside.append(f"{case['name']}: {broken[0]}")
            elif _key(case["input"]) not in known:
                own.append({**case, "origin": "model", "guess": case["expected"]})
        return {"reasoning": answer["reasoning"], "test_cases": trusted + own, "trusted": trusted, "outside": outside}

    def use_answer(self, shared, inputs, answer):
        written = _unique_names(answer["test_cases"])
        cases = written + answer["variants"]
        shared["test_cases"], shared["any_order"] = cases, says_any_order(shared["problem"])
        names = ", ".join(case["name"] for case in written)
        trusted = f" ({origin_counts(answer['trusted'])})" if answer["trusted"] else ""
        outside = answer.get("outside") or []
        dropped = f"; {len(outside)} outside the stated constraints, dropped" if outside else ""
        made = f"; {len(answer['variants'])} variant inputs" if answer["variants"] else ""
        shared["record"].event("test_cases", say=f"  {len(written)} test cases{trusted}: {names}{dropped}{made}",
                               reasoning=answer["reasoning"], test_cases=cases, any_order=shared["any_order"],
                               outside_constraints=outside)
        return "default"


def _key(inputs):
    return json.dumps(inputs, sort_keys=True)


def _outputs_on(attempt, tests):
    """What the attempt returned on each test's input (a sandbox result, or None where it has not run)."""
    return [attempt.outputs.get(_key(case["input"])) for case in tests]


def _unique_names(cases):
    seen, named = set(), []
    for i, case in enumerate(cases, 1):
        name = case["name"] if case["name"] not in seen else f"{case['name']}_{i}"
        seen.add(name)
        named.append({**case, "name": name})
    return named


class ImplementFunction(ModelStep):
    """`samples` candidates of run_code, asked at the same time, and (while there is no oracle that passes
    the trusted tests) an oracle: the simplest obviously correct program, slow as it may be, which only
    settles expected values (core/agreement.py). With agreement on, candidates see only the trusted tests:
    the model's guessed expected values could lead them astray, and they must stay independent votes."""
    working = "asking the model for run_code"

    def prep(self, shared):
        settings, attempts = shared["settings"], shared["attempts"]
        valid_oracle = any(a.source == "oracle" and a.trusted_passed == a.trusted_total and a.check == "ok"
                           for a in attempts)
        shown = [case for case in shared["test_cases"] if is_trusted(case)] if settings.agreement else shared["test_cases"]
        redraw = any(a.source == "implement" for a in attempts)
        return {**self.model_inputs(shared), "test_cases": shown, "oracle": settings.oracle and not valid_oracle,
                "redraw": redraw}

    def exec(self, inputs):
        extra = [(oracle_request(inputs["test_cases"]), parse_code_answer, "oracle")] if inputs["oracle"] else []
        return self.ask_samples(inputs, implement_request(inputs["test_cases"]), parse_code_answer, extra,
                                max_tokens=CODE_TOKENS, all_hot=inputs["redraw"])

    def use_answer(self, shared, inputs, answers):
        candidates, more = answers
        oracle = more[0] if more else None
        attempts, round_ = shared["attempts"], shared["iteration"]
        new = [attempts.add(answer["function_code"], None, "implement", round_) for answer in candidates]
        brute = attempts.add(oracle["function_code"], None, "oracle", round_) if oracle else None
        shared["function_code"] = candidates[0]["function_code"]
        lines = candidates[0]["function_code"].count("\n")
        more = f"; {len(candidates)} candidates" if len(candidates) > 1 else ""
        more += "; an oracle" if brute else "; no usable oracle" if inputs["oracle"] else ""
        shared["record"].event("function_code", say=f"  run_code written ({lines} lines{more})",
                               reasoning=candidates[0]["reasoning"], function_code=candidates[0]["function_code"],
                               attempts=[a.id for a in new if a], oracle=brute and brute.id)
        return "default"


class ParallelBatchNode(BatchNode):
    """A BatchNode whose items run at the same time; each item here is one sandbox process.

    The pool is not waited for when the main thread is interrupted: main.py then kills the running
    sandboxes, which ends the worker threads at once instead of at the batch deadline.
    """

    def _exec(self, items):
        if len(items) <= 1:
            return super()._exec(items)
        pool = ThreadPoolExecutor(max_workers=min(len(items), 2 * (os.cpu_count() or 1)))
        try:
            return list(pool.map(partial(Node._exec, self), items))
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


class InstallPackages(Step):
    """--allow-install: the third-party modules the new attempts import are installed (wheels only) into a
    cached folder outside the user's environment, which the sandbox then puts on the code's path. The
    folder holds every package the run's code has needed so far."""
    working = None  # quiet unless something is installed: post reports it

    def prep(self, shared):
        have = shared["packages"] or {"modules": [], "path": None}
        new = {m for a in shared["attempts"] if a.status == "new" for m in third_party_imports(a.code)}
        return sorted(new | set(have["modules"])), have

    def exec(self, wanted):
        modules, have = wanted
        if not modules or modules == have["modules"]:
            return None  # nothing new to install
        try:
            return install(modules)
        except PackageCacheError as exc:  # an unsafe cache folder: install nothing, say why, go on
            return Installation(path=have["path"], failed={module: str(exc) for module in modules})

    def post(self, shared, wanted, installation):
        if installation is None:
            return "default"
        shared["packages"] = {"modules": wanted[0], "path": installation.path, "installed": installation.installed,
                              "failed": installation.failed, "report": installation.report()}
        shared["record"].event("packages", say=f"InstallPackages: {installation.report()}", **shared["packages"],
                               seconds=installation.seconds, cached=installation.cached)
        return "default"


class CheckCode(Step, ParallelBatchNode):
    """The import check and the execution check, in the sandbox, for each new attempt before its tests;
    and the linter (ruff, outside the sandbox: it only reads the code)."""
    working = "checking that the code imports and loads"

    def prep(self, shared):
        settings = shared["settings"]
        return [{"id": a.id, "code": a.code, "limits": settings.limits, "isolation": settings.isolation,
                 "lint": settings.lint, "packages": packages_path(shared)}
                for a in shared["attempts"] if a.status == "new"]

    def exec(self, item):
        findings = lint(item["code"]) if item["lint"] else None
        return item["id"], check_code(item["code"], item["limits"], item["isolation"], item["packages"]), findings

    def post(self, shared, items, checked):
        for attempt_id, failure, findings in checked:
            attempt = shared["attempts"].get(attempt_id)
            attempt.check, attempt.lint = failure or "ok", findings
            if failure:
                shared["record"].event("check_failed", say=f"  attempt {attempt_id}: {failure['check']} check failed: "
                                       f"{failure['error_type']}: {failure['message'][:100]}", attempt=attempt_id, **failure)
        return "default"


def packages_path(shared):
    return (shared.get("packages") or {}).get("path")


class RunTests(Step, ParallelBatchNode):
    """Runs every program (the candidates, their revisions, the oracle) on every test input it has not run
    yet, then settles each model test's expected value from what the programs returned
    (core/agreement.py: trusted, oracle, majority, the model's guess as tie-breaker, else disputed; an
    input every program raises on is dropped), judges every attempt on the tests that count, rejects a
    revision that broke a test its parent passes, and picks what comes next: success (an attempt passes
    every counted test; if inputs are disputed, after one more draw of candidates, and then the one
    the most programs side with), a fresh draw of candidates (none passes the trusted tests yet), the
    person's fresh edit, or the search policy's choice to revise.
    With no tests left (the person deleted them all) the code is only checked: it must parse, import
    and load, and the run ends `untested`."""
    working = "running the tests in the sandbox"

    def prep(self, shared):
        tests, settings = shared["test_cases"], shared["settings"]
        work = [(a, [case for case in tests if _key(case["input"]) not in a.outputs])
                for a in shared["attempts"] if a.status in ("new", "kept", "solved", "oracle") and a.check == "ok"]
        work = [(a, todo) for a, todo in work if todo]
        shards = max(1, min(max((len(todo) for _, todo in work), default=1), os.cpu_count() or 1)) if len(work) == 1 else 1
        return [{"id": a.id, "code": a.code, "inputs": [case["input"] for case in todo[k::shards]],
                 "limits": settings.limits, "isolation": settings.isolation, "packages": packages_path(shared)}
                for a, todo in work for k in range(shards)]

    def exec(self, shard):
        raw = run_batch(shard["code"], shard["inputs"], shard["limits"], shard["isolation"], shard["packages"])
        return shard["id"], [(_key(inputs), result) for inputs, result in zip(shard["inputs"], raw)]

    def post(self, shared, shards, ran):
        attempts, settings = shared["attempts"], shared["settings"]
        for attempt_id, pairs in ran:
            attempts.get(attempt_id).outputs.update(pairs)
        fresh = [a for a in attempts if a.status == "new"]  # made by the step before this round
        tests = self.settle_expected(shared)
        self.judge_all(shared, tests)
        for a in fresh:
            if a.source == "oracle":
                a.status = "oracle"
            else:
                attempts.settle(a, settings.anchors)
        shared["iteration"] += 1
        if not tests:  # the person removed every test: loading cleanly is all that can be checked
            loaded = [a for a in attempts if a.check == "ok" and a.is_candidate]
            if loaded:
                self.make_current(shared, loaded[-1])
                shared["record"].event("test_run", say="  no tests: the code parses, imports and loads",
                                       iteration=shared["iteration"], attempt=loaded[-1].id, passed=0, total=0,
                                       results=[], attempts=[])
                return "untested"
        solved = [a for a in attempts if a.solves]
        disputed = [i for i, case in enumerate(tests) if case["evidence"]["source"] == "disputed"]
        settle_first = bool(solved and disputed and self.draws_for_disputes(shared))  # one more draw, then claim
        by_person = [a for a in fresh if a.source == "user" and a.status == "kept"]
        if solved:
            backing = self.support_on(shared, disputed)
            current = max(solved, key=lambda a: (a.trusted_passed, a.passed, backing(a), a.rank()))
            if disputed and not settle_first:
                tests, disputed = self.accept_guesses(shared, current, tests, disputed)
            if not disputed and self.anchored(shared, tests):
                current.status = "solved"
        elif by_person:  # the person edited the code: revise what they wrote
            current = by_person[-1]
        else:
            current = attempts.choose(settings.search) or attempts.best()
        self.make_current(shared, current)
        judged_now = [a for a in attempts if a.results is not None]
        shared["record"].event("test_run", say=f"  iteration {shared['iteration']}/{settings.max_iterations}: "
                               f"{current.passed}/{current.total} tests pass{self.trusted_note(current, tests)}"
                               f"{self.attempts_note(fresh)}",
                               iteration=shared["iteration"], attempt=current.id, passed=current.passed,
                               total=current.total, results=current.results,
                               attempts=[a.summary() for a in judged_now])
        if settle_first:
            shared["dispute_draws"] += 1
            shared["record"].event("dispute_draw", say=f"  {len(disputed)} disputed input{'s' * (len(disputed) != 1)}: "
                                   "drawing more candidates before calling it solved", iteration=shared["iteration"],
                                   disputed=[tests[i]["name"] for i in disputed], solving=[a.id for a in solved])
            return "redraw"
        if solved:  # inputs still disputed after the draws, or no trusted test: see anchored and accept_guesses
            return "success" if current.status == "solved" else "unconfirmed"
        if shared["iteration"] >= settings.max_iterations:
            return "exhausted"
        return "redraw" if self.wants_fresh_candidates(shared) else "failure"

    @staticmethod
    def settle_expected(shared):
        """Settle every model test's expected value from the programs' outputs (core/agreement.py); drop
        the inputs every program raised on (a variant: any voting program). Returns the current tests, each with
        its `evidence`."""
        tests, attempts, settings = shared["test_cases"], shared["attempts"], shared["settings"]
        voters = {a.id: _outputs_on(a, tests)
                  for a in attempts if a.source == "implement" and a.check == "ok"}
        oracles = [a for a in attempts if a.source == "oracle" and a.check == "ok"]
        oracle = _outputs_on(oracles[-1], tests) if oracles else None
        evidence = settle(tests, voters, oracle, shared["any_order"], settings.agreement)
        dropped = [case["name"] for case, found in zip(tests, evidence) if found["source"] == "rejected"]
        settled = []
        for case, found in zip(tests, evidence):
            if found["source"] == "rejected":
                continue
            changed = {"expected": found["expected"]} if found["counted"] else {}
            settled.append({**case, **changed, "evidence": {k: v for k, v in found.items() if k != "expected"}})
        if settled != tests:
            shared["test_cases"] = settled
        if settled != tests and settings.agreement:
            strength = summary([c["evidence"] for c in settled], counted_variants(settled))
            gone = f"; dropped (programs raised there, or none had an answer): {', '.join(dropped)}" if dropped else ""
            shared["record"].event("evidence", say=f"  expected values: {strength}{gone}", test_cases=settled, dropped=dropped)
        return settled

    @classmethod
    def judge_all(cls, shared, tests):
        for a in shared["attempts"]:
            if a.check is not None and a.status != "rejected":
                a.score(cls.verdicts(a, tests, shared["any_order"]), tests)

    @staticmethod
    def anchored(shared, tests):
        """A claim needs one test whose expected value is not the programs' or the model's own: a statement
        example or one of the person's. Without, agreement among samples of one model has nothing to check
        it against: measured, such claims were wrong 3 times in 5 (a misread statement that 2 of 3
        candidates share), against 11 in 118 with one (docs/benchmarks.md, python -m bench.claims). With agreement off
        (--model-expected) the model's values are the truth, as before."""
        return not shared["settings"].agreement or has_trusted(tests)

    @classmethod
    def accept_guesses(cls, shared, attempt, tests, disputed):
        """After the draws, a claim may stand on disputed inputs no independent program answered (no candidate
        passed the trusted tests; a revision solved) when the code returns the model's guess on every one:
        a program and a guess written before any code agree, the evidence `guess` counts with one voter.
        Measured: such runs were right 6 times in 6, the other runs left with inputs disputed 11 times in
        18 (docs/benchmarks.md, python -m bench.claims). Returns the tests and the inputs still disputed."""
        confirmed = confirmed_by_guess(_outputs_on(attempt, tests), tests, disputed, shared["any_order"])
        if len(confirmed) < len(disputed):
            return tests, disputed
        tests = [{**case, "expected": guess(case), "evidence": {**case["evidence"], "source": "solution_guess",
                                                                "agree": 1, "counted": True}}
                 if i in confirmed else case for i, case in enumerate(tests)]
        shared["test_cases"] = tests
        cls.judge_all(shared, tests)
        shared["record"].event("evidence", say=f"  {len(confirmed)} disputed input{'s' * (len(confirmed) != 1)} no other "
                               "program answered: the solution returns the model's guess on each, so they count",
                               test_cases=tests, dropped=[])
        return tests, []

    @staticmethod
    def verdicts(attempt, tests, any_order):
        """The attempt's verdict on each current test, from what it returned; a failed check fails them all."""
        results = []
        for case in tests:
            raw = attempt.outputs.get(_key(case["input"]))
            if isinstance(attempt.check, dict):
                result = {**judge(CHECK_FAILED, case["expected"]), **attempt.check}
            else:
                result = judge(raw or NOT_RUN, case["expected"], any_order)
            evidence = case.get("evidence", {})
            # a disputed input is left out, unless this code raises where other programs return a value:
            # whichever value is right, raising is wrong (the input is valid, or they would raise too)
            # (not a variant: made by changing a given input, it may break a precondition; it counts once settled)
            crashed = bool(raw and not raw["ok"] and not raw.get("timed_out") and evidence.get("voters", 0) >= 1
                           and not is_variant(case))
            results.append({**result, "counted": evidence.get("counted", True) or crashed})
        return results

    @staticmethod
    def wants_fresh_candidates(shared):
        """Draw new candidates, rather than revise, while none passes the trusted tests."""
        attempts, settings = shared["attempts"], shared["settings"]
        draws = len({a.round for a in attempts if a.source == "implement"})
        passing = [a for a in attempts if a.is_candidate and a.trusted_total and a.trusted_passed == a.trusted_total]
        return (settings.agreement and has_trusted(shared["test_cases"]) and not passing
                and draws < settings.max_draws)

    @staticmethod
    def draws_for_disputes(shared):
        """A success whose tests leave inputs disputed waits for one more draw (settings.dispute_draws): more
        voters settle them, or show the solving candidate to be the odd one out. Measured: claims with
        disputed inputs were wrong in 3 of 9 runs, claims without in none of 16; with this draw, 2 of 4
        against 1 of 22 (docs/benchmarks.md)."""
        settings = shared["settings"]
        return (settings.agreement and shared["dispute_draws"] < settings.dispute_draws
                and shared["iteration"] < settings.max_iterations
                and shared["budget"].affords(settings.samples, settings.samples * (CODE_TOKENS + DRAW_PROMPT_TOKENS)))

    @staticmethod
    def support_on(shared, indices):
        """attempt -> how many independent programs (candidates that pass the trusted tests, the valid oracle)
        return what it returns on the inputs `indices`."""
        attempts, tests = shared["attempts"], shared["test_cases"]
        voters = [a for a in attempts if a.source in ("implement", "oracle") and a.check == "ok"
                  and a.trusted_passed == a.trusted_total]
        outputs = {a.id: _outputs_on(a, tests) for a in voters}

        def backing(attempt):
            return support(_outputs_on(attempt, tests), [results for vid, results in outputs.items() if vid != attempt.id], indices,
                           shared["any_order"])
        return backing

    @staticmethod
    def make_current(shared, attempt):
        shared["current"] = attempt.id
        shared["function_code"], shared["test_results"] = attempt.code, attempt.results

    @staticmethod
    def trusted_note(attempt, tests):
        return f" ({trusted_name(tests)} {attempt.trusted_passed}/{attempt.trusted_total})" if attempt.trusted_total else ""

    @staticmethod
    def attempts_note(fresh):
        rejected = [a for a in fresh if a.status == "rejected"]
        parts = [f"{len(fresh)} new attempts"] if len(fresh) > 1 else []
        parts += [f"attempt {a.id} rejected: it broke {', '.join(a.broke)}" for a in rejected]
        return f"; {'; '.join(parts)}" if parts else ""


class ReflectOnFailure(ModelStep):
    working = "asking the model why the code fails"
    optional, skipped = True, ("failure_reflection_skipped", "no usable analysis; revising without")

    def prep(self, shared):
        return {**self.model_inputs(shared), **branch_view(shared)}

    def exec(self, inputs):
        request = failure_reflection_request(inputs["function_code"], failure_report(inputs))
        return self.ask(inputs, request, parse_failure_reflection, max_tokens=REFLECTION_TOKENS)

    def use_answer(self, shared, inputs, answer):
        shared["attempts"].note(shared["current"], f"your analysis of this failure: {answer}")
        shared["record"].event("failure_reflection", say="  failure analysed", attempt=shared["current"], reflection=answer)
        return "default"


def branch_view(shared):
    """What a step about the current attempt sees: its code, its results and its branch's notes only."""
    attempts, current = shared["attempts"], shared["attempts"].get(shared["current"])
    return {"test_cases": shared["test_cases"], "function_code": shared["function_code"],
            "test_results": shared["test_results"], "notes": attempts.branch_notes(current.id),
            "current": current.id, "check": current.check, "lint": current.lint}


def failure_report(inputs):
    settings = inputs["settings"]
    if not inputs["test_cases"] and isinstance(inputs.get("check"), dict):  # no tests, and the code does not load
        return check_failure(inputs["check"], inputs["function_code"])
    if settings.feedback == "plain":
        report = format_results(inputs["test_cases"], inputs["test_results"])
    else:
        report = classified_results(inputs["test_cases"], inputs["test_results"], inputs["function_code"],
                                    settings.limits.test_timeout)
    findings = describe_lint(inputs.get("lint"))
    return report + (f"\nThe linter (ruff) also found:\n{findings}" if findings else "")


class Revise(ModelStep):
    """The model decides, for the chosen attempt's failures, whether a test or the code is wrong. It may
    correct the model's own tests (and add some, with revise_adds_tests), never a trusted one: such an
    entry is refused and the refusal fed back. Tests are shared by every branch, so the first sample that
    corrects tests sets them; each new code is a child attempt of the one revised."""
    working = "asking the model which is wrong, the tests or the code"
    unusable_ends_unsolved, answer_name = True, "revision"  # the versions so far stand; the best is handed over

    def prep(self, shared):
        return {**self.model_inputs(shared), **branch_view(shared)}

    def exec(self, inputs):
        trusted = [i for i, case in enumerate(inputs["test_cases"]) if is_protected(case)]
        request = revise_request(inputs["function_code"], failure_report(inputs), inputs["notes"],
                                 [trusted_label(inputs["test_cases"][i]) for i in trusted])
        names, settings = [case["name"] for case in inputs["test_cases"]], inputs["settings"]
        max_tests = settings.max_tests if settings.revise_adds_tests else len(names)
        parse = partial(parse_revise_answer, test_names=names, max_tests=max_tests, trusted=trusted)
        return self.ask_samples(inputs, request, parse, max_tokens=REVISE_TOKENS)[0]

    def use_answer(self, shared, inputs, answers):
        # Tests are shared by every branch: the first sample that corrects any sets them for all.
        answer = next((a for a in answers if a["test_cases"]), answers[0])
        tests = list(shared["test_cases"])
        corrected = [i for i in sorted(answer["test_cases"]) if i < len(tests)]
        added = [i for i in sorted(answer["test_cases"]) if i >= len(tests)]
        for index in corrected:
            case = answer["test_cases"][index]
            tests[index] = {**case, "name": case["name"] or tests[index]["name"], "origin": "model",
                            "guess": case["expected"], "revised": answer["reasoning"][:300]}
        for index in added:  # numbered on from the last test, without gaps (the parser checked)
            case = answer["test_cases"][index]
            tests.append({**case, "name": case["name"] or f"test_{index + 1}", "origin": "model", "guess": case["expected"]})
        if corrected or added:
            shared["test_cases"] = _unique_names(tests)
        parent, attempts = shared["current"], shared["attempts"]
        new = [attempts.add(a["function_code"], parent, "revise", shared["iteration"])
               for a in answers if a["function_code"]]
        ignored = [text for a in answers for text in a["ignored"]]
        for text in ignored:
            attempts.note(parent, f"refused: {text}")
        summary = f"  tests corrected: {', '.join(str(i + 1) for i in corrected) or 'none'}"
        summary += f"; tests added: {len(added)}" if added else ""
        new_ids = [a.id for a in new if a]
        summary += f"; new code: attempt {', '.join(map(str, new_ids))}" if new_ids else "; code unchanged"
        summary += f"; {len(ignored)} entries refused" if ignored else ""
        shared["record"].event("revision", say=summary, reasoning=answer["reasoning"], iteration=shared["iteration"],
                               attempt=parent, ignored=ignored, new_attempts=new_ids,
                               revised_tests={str(i + 1): c for i, c in answer["test_cases"].items()},
                               test_cases=shared["test_cases"], function_code=answer["function_code"])
        return "default"


NOT_RUN = {"ok": False, "value": None, "repr": "", "error_type": "NotRun", "message": "not run", "traceback": "",
           "timed_out": False, "ms": 0.0, "output": ""}
CHECK_FAILED = {**NOT_RUN, "error_type": None, "message": ""}

ORIGIN_MARKS = {"statement": " (statement)", "user": " (yours)"}


def trusted_name(test_cases):
    """What the trusted tests are called in messages: the statement's examples, unless the person added some."""
    return "trusted tests" if any(case.get("origin") == "user" for case in test_cases) else "statement examples"


def counted_variants(test_cases):
    return sum(is_variant(case) and case.get("evidence", {}).get("counted", False) for case in test_cases)


def origin_counts(test_cases):
    origins = [case.get("origin") for case in test_cases]
    return ", ".join(f"{origins.count(origin)} {where}" for origin, where in
                     (("user", "yours"), ("statement", "from the statement")) if origin in origins)


class Finish(Step):
    """A terminal node: records how the run ended, keeping the best version when it is not solved.
    Having no successors, it ends the flow quietly."""
    working = None  # main.py prints the outcome

    def __init__(self, status):
        super().__init__()
        self.status = status

    def prep(self, shared):
        return {"attempts": shared["attempts"], "iteration": shared["iteration"], "current": shared.get("current"),
                "message": shared.get("message", ""), "test_cases": shared["test_cases"],
                "dispute_draws": shared.get("dispute_draws", 0)}

    def exec(self, state):
        # solved, untested, unconfirmed: RunTests made the version to hand over current
        kept = state["attempts"].best() if self.status not in ("solved", "untested", "unconfirmed") else None
        return kept, self.closing_message(state, kept)

    def closing_message(self, state, kept):
        if self.status == "untested":
            return ("no tests to run: the code parses, imports and loads; nothing else was checked"
                    if len(state["attempts"]) else "code written without tests (single-shot)")
        if self.status == "model_failed":
            return f"the model failed: {state['message']}"
        evidence = [case.get("evidence") or {"source": case.get("origin", "model")} for case in state["test_cases"]]
        strength = summary(evidence, counted_variants(state["test_cases"]))
        if self.status == "solved":
            solved = next(a for a in state["attempts"] if a.status == "solved")
            return (f"solved: all {solved.total} tests pass ({strength}) after {state['iteration']} "
                    "iteration(s)")
        if self.status == "unconfirmed":
            current = state["attempts"].get(state["current"])
            disputed = [case for case in state["test_cases"] if (case.get("evidence") or {}).get("source") == "disputed"]
            # several programs answered differently, or at most one answered (then only the model's guess differs)
            split = [", ".join(case["name"] for case in disputed if (case["evidence"]["voters"] >= 2) == several)
                     for several in (True, False)]
            draws = f"after {state['dispute_draws']} more draw{'s' * (state['dispute_draws'] != 1)} " if state["dispute_draws"] else ""
            why = "; ".join(part for part in (split[0] and f"{draws}the programs disagree on {split[0]}",
                                              split[1] and f"{draws * (not split[0])}no second program confirms its "
                                                           f"output on {split[1]}") if part)
            why = f"{why}: check what run_code must return there" if why else ""
            if not has_trusted(state["test_cases"]):
                why = "; ".join(part for part in (why, "no test comes from the statement or from you, so nothing but the "
                                                       "model's own programs backs it: add a worked example to the "
                                                       "problem, or --tests FILE") if part)
            return f"not confirmed: attempt {current.id} passes all {current.total} tests that count ({strength}), but {why}"
        lead = "stopped by the user" if self.status == "stopped" else "not solved"
        if kept is None:
            return f"{lead}: {state['message'] or 'no code was written'}"
        failing = [f"{case['name']}{ORIGIN_MARKS.get(case.get('origin'), '')}"
                   for case, result in zip(state["test_cases"], kept.results or [])
                   if not result["passed"] and result.get("counted", True)]
        trusted = (f", {kept.trusted_passed} of {kept.trusted_total} {trusted_name(state['test_cases'])}"
                   if kept.trusted_total else "")
        why = f" ({state['message']})" if state["message"] and self.status == "unsolved" else ""
        return (f"{lead} after {state['iteration']} iteration(s){why}: the best version (attempt {kept.id}) "
                f"passes {kept.passed} of {kept.total} tests{trusted}; failing: {', '.join(failing[:6]) or 'none'}")

    def post(self, shared, state, outcome):
        kept, message = outcome
        if kept is not None:  # unsolved or failed: hand over the best version, not merely the last
            RunTests.make_current(shared, kept)
        shared["status"], shared["message"] = self.status, message
        return None
