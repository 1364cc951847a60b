"""The flow's nodes. Each one: prep reads the shared store, exec computes, post writes and picks the next action.

The shared store's keys are documented in docs/design.md; the run's services (settings, record, budget,
progress, terminal) are one object under `services`. The rules that judge a round and end a run live in
core/ (core/round_verdict.py, core/run_outcome.py); the nodes gather their facts and write their results. Two small
bases keep the nodes short:
  Step       tells the run record (and so the terminal) which node is working and how long it took.
  ModelStep  a Step that asks the model. Every request checks the run's call and token budget first;
             when the budget is spent, the endpoint fails or the model keeps giving unusable answers,
             exec_fallback turns that into a ModelFailure and post into the "exhausted" or
             "model_failed" action (or, for an optional step, into skipping it). A ModelStep writes
             its usable answer in `use_answer`, its post.
"""
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

from pocketflow import BatchNode, Node

from core.expected_values import summary
from core.budget import BudgetSpent
from core.cases import TestCase, input_key, records, trusted_name, unique_names
from core.compare import outputs_match
from core.constraints import violations
from core.empty_inputs import emptied_inputs
from core.feedback import check_failure, trusted_label
from core.checkers import (CHECKER_SHIM, VALIDATOR_SHIM, calls_to_check, checker_can_act, checker_in_use, checker_shim,
                         input_promises, output_name, promised_only, promises_one_answer, validator_in_use,
                         wants_a_checker)
from core.largest_input import TOO_SLOW, largest_input, shown
from core.confidence import evidence_of_attempts, weigh
from core.run_outcome import SECOND_READING, RunState, conclude
from core.output_kind import OutputKind
from core.problem_kind import GIVEN_NAMES, Contract, Family
from core.prompts import (answers_request, checker_request, clarify_request, classified_results, conversation,
                          explain_request, failure_reflection_request, format_results, implement_request, oracle_request,
                          family_note, generator_request, input_checker_request, problem_context, reflect_request,
                          restated_request, revise_request, rules_request, speed_note, validator_request,
                          write_tests_request)
from core.random_inputs import raised_where_others_return, shaped_inputs, telling_apart
from core.source_code import program_key
from core.statement_examples import statement_examples
from core.variants import variant_cases
from core.round_verdict import RoundFacts, Rules, judge_round
from core.vocabulary import Action, AttemptStatus, Author, Origin, RunStatus, Source
from utils.ask_model import SAMPLE_TEMPERATURE, InvalidAnswers, ask_for_yaml
from utils.call_llm import Cancelled, ModelBackendError
from utils.code_checks import check_code
from utils.lint import describe as describe_lint
from utils.lint import lint
from utils.packages import Installation, PackageCacheError, install, third_party_imports
from utils.review_session import review
from utils.runaway import complete_tests, watch_code, watch_loops, watch_tests
from utils.sandbox import run_batch
from utils.text_files import write_atomically
from utils.yaml_answer import (parse_code_answer, parse_failure_reflection, parse_judge_answer, parse_prose,
                               parse_question_answer, parse_reflection_answer, parse_revise_answer, parse_rules_answer,
                               parse_tests_answer)


@dataclass
class ModelFailure:
    message: str
    budget_spent: bool = False  # the run's budget, not the model, ended the step
    unusable: bool = False      # the endpoint answered, but never usably


class Step(Node):
    working = "working"

    def _run(self, shared):
        record, name = shared["services"].record, type(self).__name__
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
        services = shared["services"]
        settings = services.settings
        contract = shared["contract"]
        return {"problem": problem_context(shared["problem"], settings.docs, shared["reflection"], shared["guidance"],
                                           family_note(contract)), "solution_name": contract.solution_name,
                "settings": settings, "on_call": partial(services.record.model_call, type(self).__name__),
                "budget": services.budget, "progress": services.progress, "seeds": services.seeds}

    def ask(self, inputs, request, parse, temperature=None, max_tokens=None, label="", watch=None, salvage=None):
        """One structured answer (re-asked while unusable), shown live as it streams and stopped early when
        it runs away (utils/runaway.py): a loop always, and what `watch` looks for."""
        settings = inputs["settings"]
        progress, name = inputs["progress"], f"{type(self).__name__}{' ' + label if label else ''}"
        model = replace(settings.model, seed=inputs["seeds"].next(name))
        model = model if temperature is None else replace(model, temperature=temperature)
        model = model if max_tokens is None else replace(model, max_tokens=min(model.max_tokens, max_tokens))
        on_progress, end = progress.start(name) if progress else (None, None)

        def journal(call):
            inputs["on_call"](call)
            if progress and call.get("answer") is not None and call.get("error") and call["attempt"] < settings.answer_attempts:
                progress.note(f"{name}: unusable answer ({call['error'].splitlines()[0][:100]}); asking again")
        try:
            messages = conversation(inputs["problem"], request, settings.allow_install, inputs.get("solution_name") == "")
            return ask_for_yaml(messages, parse, model, journal, settings.answer_attempts, inputs["budget"], watch or watch_loops(),
                                salvage, on_progress, (lambda text: progress.note(f"{name}: {text}")) if progress else None)
        except Cancelled as stopped:  # the time limit, or a cancel: the budget is spent, not the model failed,
            if stopped.endpoint_failure and not inputs["budget"].stop_event.is_set():  # unless the endpoint had
                # failed every try until the time limit: that is named first (someone's cancel stays a cancel)
                raise ModelBackendError(f"{stopped.endpoint_failure}; then {stopped} before the next try") from None
            raise BudgetSpent(str(stopped)) from None
        finally:
            if end:
                end()

    def ask_samples(self, inputs, request, parse, extra=(), max_tokens=None, all_hot=False, count=None, first_request=None):
        """`count` (else `samples`) answers to `request`, asked at the same time (up to settings.requests_at_once): the
        first at the configured temperature, the others sampled hotter so they differ. `extra` are more
        (request, parse) pairs asked alongside (the oracle), each answered or None. An unusable sample
        is dropped, as is one the endpoint or the budget refused while another was usable; only when no
        sample is usable does the step fail. Every answer holds code: utils/runaway.watch_code stops it early
        when it runs away. `all_hot`: every answer sampled hot (a second draw of the same
        request, whose first answer at the configured temperature would only repeat the first draw's). `first_request`,
        when given, is what the first sample is asked instead."""
        settings = inputs["settings"]
        hot = max(settings.model.temperature, SAMPLE_TEMPERATURE)
        first = hot if all_hot else None
        count = count or settings.samples
        several = settings.samples > 1
        jobs = [partial(self.ask, inputs, (first_request or request) if k == 0 else request, parse, first if k == 0 else hot,
                        max_tokens, f"candidate {k + 1}" if several else "", watch_code()) for k in range(count)]
        jobs += [partial(self.ask, inputs, more_request, more_parse, first, max_tokens, more_label, watch_code())
                 for more_request, more_parse, more_label in extra]
        outcomes = all_at_once(jobs, settings.requests_at_once)
        samples, more = outcomes[:count], outcomes[count:]
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
        name, record = type(self).__name__, shared["services"].record
        if failure.budget_spent:
            shared["message"] = failure.message
            record.event("budget_spent", say=f"{name}: {failure.message}")
            return Action.EXHAUSTED
        if failure.unusable and self.unusable_ends_unsolved:
            shared["message"] = f"the model gave no usable {self.answer_name}: {failure.message}"
            record.event("no_usable_answer", say=f"{name}: {failure.message}", message=failure.message)
            return Action.EXHAUSTED
        if self.optional:
            event, said = self.skipped
            record.event(event, say=f"  {said}: {failure.message}", node=name)
            return Action.DEFAULT
        shared["status"], shared["message"] = RunStatus.MODEL_FAILED, failure.message
        record.event("model_failed", say=f"{name}: {failure.message}", message=failure.message)
        return Action.MODEL_FAILED


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


# Each answer kind is capped at what it needs (the answer lengths measured on the embedded model are in
# docs/journal/2026-11.md), so that a runaway costs little. A reflection is a few sentences; one that fails is
# skipped, not fatal.
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
        shared["services"].record.event("reflection", say="  problem restated", reflection=answer)
        return Action.DEFAULT


class AskPerson(ModelStep):
    """--interactive: before any tests, the model may ask the person one clarifying question (ask_user).
    The answer joins the problem's context for every later call; no question or no answer changes nothing."""
    working = "asking the model whether anything in the problem is unclear"
    optional, skipped = True, ("question_skipped", "no usable question; going on without")

    def prep(self, shared):
        return {**self.model_inputs(shared), "terminal": shared["services"].terminal}

    def exec(self, inputs):
        question = self.ask(inputs, clarify_request(), parse_question_answer, max_tokens=REFLECTION_TOKENS)
        answer = inputs["terminal"].ask(f"the model asks: {question}\n(your answer, or Enter to skip) > ") if question else ""
        return {"question": question, "answer": answer or ""}

    def use_answer(self, shared, inputs, asked):
        if asked["answer"]:
            shared["guidance"].append(f"Asked {asked['question']!r}, the user answered: {asked['answer']}")
        said = "answered" if asked["answer"] else "skipped" if asked["question"] else "the model had no question"
        shared["services"].record.event("question", say=f"  {said}", **asked)
        return Action.DEFAULT


class ReviewWithPerson(Step):
    """--interactive: the person reviews the tests (stage "tests") or a failed round (stage "round") and may
    accept, edit/delete/add tests, edit the code, give feedback for the next prompt, or finish.
    Actions: default (tests stage: go on), revise, rerun (tests or code changed: test again), finish."""
    working = None  # the review prints its own view

    def __init__(self, stage):
        super().__init__()
        self.stage = stage

    def prep(self, shared):
        current = shared["attempts"].get(shared["current"]) if self.stage == "round" else None
        return {"terminal": shared["services"].terminal, "tests": shared["test_cases"],
                "code": current and current.code, "results": current and current.results}

    def exec(self, view):
        return review(view["terminal"], view["tests"], self.stage, view["code"], view["results"])

    def post(self, shared, view, change):
        shared["guidance"].extend(change["feedback"])
        if change["tests"] is not None:
            shared["test_cases"] = unique_names(change["tests"])
        new = (shared["attempts"].add(change["code"], shared["current"], Author.USER, shared["iteration"])
               if change["code"] else None)
        shared["services"].record.event("review", stage=self.stage, actions=change["actions"], feedback=change["feedback"],
                                        test_cases=records(shared["test_cases"]) if change["tests"] is not None else None,
                                        new_attempt=new and new.id)
        if change["finish"]:
            shared["message"] = "finished before any code was written" if self.stage == "tests" else "finished"
            return Action.FINISH
        if self.stage == "tests":
            return Action.DEFAULT
        return Action.RERUN if change["tests"] is not None or new else Action.REVISE


class GenerateTestCases(ModelStep):
    working = "gathering the test cases"  # the model is asked for its own only when settings.model_tests says

    def prep(self, shared):
        late = shared["tests_owed"]  # JudgeRound's more_tests: the first candidates settled no claim
        trusted = [case for case in shared["test_cases"] if case.trusted] if late else \
            trusted_tests(shared["services"].settings, shared["problem"], shared["contract"])
        return {**self.model_inputs(shared), "statement": shared["problem"], "late": late, "trusted": trusted,
                "contract": shared["contract"], "sandboxes": shared["services"].sandboxes}

    def exec(self, inputs):
        """The person's tests and the statement's examples (trusted, read without the model), then the
        model's own tests (now, once the first candidates settle no claim, or never: settings.model_tests),
        then variants of all their inputs. The person's tests are all kept, whatever max_tests says."""
        settings, trusted = inputs["settings"], inputs["trusted"]
        if inputs["contract"].family == Family.STDIO:  # texts in, texts out: inputs from a generator, not the model's tests
            made = generated_inputs(self, inputs, trusted)
            return {"reasoning": "a contest problem: its samples, and inputs from the model's generator",
                    "test_cases": trusted, "trusted": trusted, "variants": made.pop("cases"), "generated": made}
        later = bool(trusted) and not inputs["late"] and settings.tests_when_needed
        answer = self.written_tests(inputs, trusted, later)
        made = variant_cases([case.input for case in answer["test_cases"]], inputs["statement"], settings.variants,
                             sequences=inputs["contract"].family == Family.DESIGN) if settings.agreement else []
        return {**answer, "variants": made}

    def written_tests(self, inputs, trusted, later):
        """The trusted tests and the model's own: {"reasoning", "test_cases", "trusted", "outside", "owed"}."""
        settings = inputs["settings"]
        room = settings.max_tests - len(trusted)
        if room <= 0:
            return {"reasoning": "the trusted tests fill the test budget", "test_cases": trusted, "trusted": trusted}
        if trusted and settings.model_tests == "never":  # the examples and their variants are the inputs
            return {"reasoning": "no model tests asked for (model_tests never)", "test_cases": trusted, "trusted": trusted}
        if later:
            return {"reasoning": "the model's tests wait until the first candidates settle no claim",
                    "test_cases": trusted, "trusted": trusted, "owed": True}
        if trusted and settings.model_tests_max:  # without them the model's tests are all there is: as many as fit
            room = min(room, settings.model_tests_max)
        request = write_tests_request(min(max(settings.min_tests - len(trusted), 2), room), room, trusted, bool(settings.tests))
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
        known = {case.key for case in trusted}
        own, outside = [], []
        for written in answer["test_cases"]:
            case = TestCase(written["name"], written["input"], written["expected"], Origin.MODEL, guess=written["expected"])
            broken = violations(inputs["statement"], case.input) if settings.agreement else []
            if broken:
                outside.append((case.name, broken[0]))
            elif case.key not in known:
                own.append(case)
        return {"reasoning": answer["reasoning"], "test_cases": trusted + own, "trusted": trusted, "outside": outside}

    def use_answer(self, shared, inputs, answer):
        written = unique_names(answer["test_cases"])
        cases = written + answer["variants"]
        settings, late = inputs["settings"], inputs["late"]
        shared["test_cases"], shared["tests_owed"] = cases, answer.get("owed", False)
        if settings.checker and not late:  # the person's checker judges outputs; it is checked like code, never by the model
            shared["attempts"].add(settings.checker + CHECKER_SHIM, None, Author.CHECKER, 0)
        names = ", ".join(case.name for case in written)
        trusted = f" ({origin_counts(answer['trusted'])})" if answer["trusted"] else ""
        outside = answer.get("outside") or []
        dropped = (f"; dropped as outside the stated constraints: "
                   f"{', '.join(f'{name} (`{broken.line}`)' for name, broken in outside)}" if outside else "")
        made = f"; {len(answer['variants'])} variant inputs" if answer["variants"] else ""
        generated = answer.get("generated")
        made = f"; {generated['note']}" if generated else made
        made += "; the model's own tests only if the first candidate and the oracle settle no claim" \
            if shared["tests_owed"] else ""
        kind = shared["output_kind"]
        several = f"\n  several answers are right ({kind.reason}): a checker judges outputs" \
            if kind.kind == OutputKind.ANY_VALID and not late else ""
        opening = "  the first candidates settle no claim, so the model writes its tests: " if late else "  "
        shared["services"].record.event("test_cases", say=f"{opening}{len(written)} test cases{trusted}: {names}{dropped}{made}"
                                        f"{several}", reasoning=answer["reasoning"], test_cases=records(cases),
                                        any_order=kind.comparison.any_order, output_kind=kind.record(), late=late,
                                        owed=shared["tests_owed"], generated=generated,
                                        outside_constraints=[f"{name}: {broken}" for name, broken in outside])
        return Action.RERUN if late else Action.DEFAULT  # late: no new code; the programs so far run on them


def generated_inputs(step, inputs, trusted):
    """A stdio problem's inputs beyond its samples (GenerateTestCases): an input generator's, within what an input
    validator accepts, both asked of the model at once; none when there is none to be had (the samples alone
    then judge, and the run says so)."""
    settings = inputs["settings"]
    if not settings.agreement or not settings.variants:
        return {"cases": [], "note": "no generated inputs (--variants 0 or agreement off)"}
    program = partial(parse_code_answer, function="")
    try:
        written, judges = step.ask_samples(inputs, generator_request(trusted), program,
                                           [(input_checker_request(trusted), program, "validator")], count=1)
    except (InvalidAnswers, ModelBackendError) as exc:
        return {"cases": [], "note": f"no usable input generator ({str(exc).splitlines()[0][:120]})"}
    return generate_inputs(written[0]["function_code"], judges[0] and judges[0]["function_code"],
                           [case.input["stdin"] for case in trusted], settings.variants, settings.limits,
                           settings.isolation, inputs["sandboxes"], settings.seed or 0)


GENERATED_CHARS = 10_000  # asked for small inputs, generators printed 40 MB ones (r96-kattis): kept out of the record


def generate_inputs(generator, validator, samples, count, limits, isolation, group, seed=0):
    """A stdio problem's generated inputs: the generator run on `count` seeds (a test's time each, one batch),
    what it printed kept where it is new, not empty and at most GENERATED_CHARS long, and where the validator
    (when it accepts every sample: else it is the one that is wrong) does not raise on it. {"cases": TestCases of
    origin variant, "note": one line for the terminal, "generator", "validator": their code, "seeds", "printed",
    "valid": counts}."""
    stdio = Contract(Family.STDIO).for_sandbox()
    seeds = [seed * 1000 + k for k in range(1, count + 1)]
    printed = [r["value"] for r in run_batch(generator, [{"stdin": f"{k}\n"} for k in seeds], limits, isolation,
                                             group=group, contract=stdio) if r["ok"] and r["value"] and r["value"].strip()]
    distinct = list(dict.fromkeys(text if text.endswith("\n") else text + "\n" for text in printed))
    made = [text for text in distinct if text not in samples and len(text) <= GENERATED_CHARS]
    judged = ""
    if validator and made:
        verdicts = run_batch(validator, [{"stdin": text} for text in [*samples, *made]], limits, isolation, group=group,
                             contract=stdio)
        refused_samples = sum(not r["ok"] for r in verdicts[:len(samples)])
        if refused_samples:
            judged = f"; the input validator refused {plural(refused_samples, 'sample')}, so it was not used"
        else:
            kept = [text for text, r in zip(made, verdicts[len(samples):]) if r["ok"]]
            judged = f"; the input validator refused {len(made) - len(kept)}"
            made = kept
    else:
        judged = "" if validator else "; no usable input validator"
    cases = [TestCase(f"generated_{k}", {"stdin": text}, None, Origin.VARIANT) for k, text in enumerate(made, 1)]
    repeated = len(printed) - len(made)  # the same input again, a sample's, or one past GENERATED_CHARS
    note = (f"an input generator printed {plural(len(printed), 'input')} for {len(seeds)} seeds"
            f"{f' ({repeated} repeated, a sample or too large)' if repeated else ''}{judged}; {plural(len(cases), 'new input')} kept")
    return {"cases": cases, "note": note, "generator": generator, "validator": validator, "seeds": len(seeds),
            "printed": len(printed), "valid": len(cases)}


def trusted_tests(settings, statement, contract=None):
    """The person's tests, then the statement's examples that are not among them (up to max_tests)."""
    examples = statement_examples(statement, contract)[:settings.max_tests] if settings.trust_examples else []
    given = {case.key for case in settings.tests}
    return list(settings.tests) + [case for case in examples if case.key not in given]


def origin_counts(test_cases):
    origins = [case.origin for case in test_cases]
    return ", ".join(f"{origins.count(origin)} {where}" for origin, where in
                     ((Origin.USER, "yours"), (Origin.STATEMENT, "from the statement")) if origin in origins)


class ImplementFunction(ModelStep):
    """`samples` candidates of run_code, asked at the same time as the programs that judge them: an oracle
    once a run (the simplest obviously correct program, slow as it may be, which only settles expected
    values: core/expected_values.py), and, each only while there is none that passed its checks, a checker when
    several answers are right, an input validator when the statement promises something of its inputs
    (core/checkers.py). With agreement on, candidates see only the trusted tests: the model's guessed
    expected values could lead them astray, and they must stay independent votes. The first candidate
    becomes the current attempt until a round is judged."""
    working = "asking the model for run_code"

    def prep(self, shared):
        settings, attempts, tests = shared["services"].settings, shared["attempts"], shared["test_cases"]
        # one oracle a run (an unusable answer is asked again): after one that failed the trusted tests, the
        # next was valid 1 time in 28 and the third or later never in 39 (the bench's records,
        # docs/journal/2026-11.md), for about 11 s each
        asked_oracle = any(a.source == Author.ORACLE for a in attempts)
        trusted = [case for case in tests if case.trusted]
        visible = trusted if settings.agreement else tests
        judges = []
        if settings.oracle and not asked_oracle:
            judges.append((Author.ORACLE, oracle_request(visible), code_parser(shared), ""))
        kind = shared["output_kind"]
        several = kind.kind == OutputKind.ANY_VALID
        one_answer = promised_only(kind.kind, promises_one_answer(shared["problem"]))
        asked = settings.agreement and not settings.checker and checker_wanted(shared) and \
            (not one_answer or checker_can_act(attempts, tests, kind.comparison))
        if asked and checker_in_use(attempts, tests, False, one_answer, kind.comparison)[0] is None:
            name = output_name(tests)
            request, function = ((checker_request(trusted, name), "is_valid") if several else
                                 (answers_request(trusted), "all_answers"))  # one promised: every answer listed
            judges.append((Author.CHECKER, request, partial(parse_judge_answer, function=function),
                           checker_shim(function, name)))
        promised = input_promises(shared["problem"]) if settings.agreement and settings.validator \
            and shared["contract"].plain else []  # a judge of another family's inputs would see list forms, not nodes
        if promised and validator_in_use(attempts, tests) is None:
            request = validator_request(promised, trusted)
            judges.append((Author.VALIDATOR, request, partial(parse_judge_answer, function="is_valid_input"),
                           VALIDATOR_SHIM))
        redraw = any(a.source == Author.IMPLEMENT for a in attempts)
        count = (shared["draw_rest"] if redraw else settings.first_draw) or settings.samples
        if redraw and shared["draw_rest"]:  # the rest of the first draw: its judges came with it, save a checker
            # for one promised answer that the first candidates call for only now
            judges = [judge for judge in judges if one_answer and judge[0] == Author.CHECKER
                      and not any(a.source == Author.CHECKER for a in attempts)]
        rest = 0 if redraw else settings.samples - count  # what a short first draw still owes
        slow = shared["too_slow"]  # a claim's speed check failed: every later draw hears it
        # the last draw brought no new program, or none passing the examples: this one hears the candidates' approaches
        # (not the oracle's: a brute force is among what the request then suggests)
        tried = [a.code for a in attempts if a.source == Author.IMPLEMENT and a.repeat_of is None] \
            if redraw and attempts.last_draw_missed() else []
        return {**self.model_inputs(shared), "test_cases": visible, "judges": judges, "redraw": redraw, "count": count,
                "rest": rest, "too_slow": slow and speed_note(shown(slow["input"]), slow["limit_s"]),
                "plain_first": not redraw and settings.agreement, "tried": tried}

    def exec(self, inputs):
        """(candidates, the judges' answers, the draw's candidates still owed)."""
        extra = [(request, parse, str(author)) for author, request, parse, _ in inputs["judges"]]
        request = implement_request(inputs["test_cases"], inputs["too_slow"], inputs["tried"])
        count, rest = inputs["count"], inputs["rest"]
        # the run's first candidate is asked as one plain request is (the statement, no tests listed), so the loop keeps
        # what single-shot would write: shown the examples as tests, the others wrote max - min for "the largest
        # difference between adjacent items" on a problem single-shot solved (record r86-main-ss1, issue 89)
        plain = implement_request([], inputs["too_slow"]) if inputs["plain_first"] else None
        try:
            return *self.ask_samples(inputs, request, code_parser(inputs), extra, max_tokens=CODE_TOKENS,
                                     all_hot=inputs["redraw"], count=count, first_request=plain), rest
        except (ModelBackendError, InvalidAnswers) as failure:
            if not rest:
                raise
            first = failure
        # a short first draw got no usable candidate: the rest of it now, as a draw of all at once would have
        try:
            candidates, _ = self.ask_samples(inputs, request, code_parser(inputs), max_tokens=CODE_TOKENS, all_hot=True,
                                             count=rest)
        except BudgetSpent:  # the time ran out meanwhile: an endpoint that failed every try says more
            if isinstance(first, ModelBackendError):
                raise first from None
            raise
        return candidates, [None] * len(extra), 0

    def use_answer(self, shared, inputs, answers):
        candidates, judged_by, shared["draw_rest"] = answers  # draw_rest: asked only if these settle no claim
        attempts, round_ = shared["attempts"], shared["iteration"]
        # a candidate that is a program the run has by text (the oracle's, a revision's too) is no attempt and no vote
        drawn = attempts.draw([answer["function_code"] for answer in candidates], round_)
        judges = {author: answer and attempts.add(answer["function_code"] + shim, None, author, round_)
                  for (author, _, _, shim), answer in zip(inputs["judges"], judged_by)}
        first, written_before = drawn[0]
        shared["current"], repeated = (first or written_before).id, [again.id for _, again in drawn if again]
        said = draw_line(candidates, repeated, judges, bool(inputs["tried"]))
        shared["services"].record.event("function_code", say=f"  {'run_code' if inputs['solution_name'] else 'the program'} written ({said})", reasoning=candidates[0]["reasoning"],
                                        function_code=candidates[0]["function_code"], repeated=repeated,
                                        attempts=[attempt.id for attempt, _ in drawn if attempt],
                                        another_approach=bool(inputs["tried"]),  # the request named the approaches tried
                                        **{str(author): judge and judge.id for author, judge in judges.items()})
        return Action.DEFAULT


def draw_line(candidates, repeated, judges, another):
    """A draw in the terminal's words: the first candidate's length, how many candidates, which repeat a program the
    run had (no new program), whether the request asked for another approach, the judges written."""
    lines = candidates[0]["function_code"].count("\n")
    more = f"; {len(candidates)} candidates" if len(candidates) > 1 else ""
    ids = sorted(set(repeated))
    more += (f"{',' if more else ';'} {len(repeated)} repeat{'s' * (len(repeated) == 1)} attempt{'s' * (len(ids) > 1)} "
             f"{', '.join(map(str, ids))} (no new program)" if repeated else "")
    more += "".join(f"; {JUDGE_NAMES[author][0]}" if judge else f"; no usable {JUDGE_NAMES[author][1]}"
                    for author, judge in judges.items())
    more += "; asked for another approach than those tried" if another else ""
    return f"{lines} lines{more}"


def code_parser(shared_or_inputs):
    """parse_code_answer for what this problem's code must define: run_code, a design's class, or ("") nothing."""
    name = shared_or_inputs["solution_name"] if "solution_name" in shared_or_inputs else \
        shared_or_inputs["contract"].solution_name
    return parse_code_answer if name == "run_code" else partial(parse_code_answer, function=name)


def checker_wanted(shared):
    """core/checkers.wants_a_checker for this run; never in another family than plain, whose checker would be
    handed list forms where run_code gets nodes (or a design's whole sequence): equality judges those."""
    return shared["contract"].plain and wants_a_checker(shared["output_kind"].kind, promises_one_answer(shared["problem"]),
                           shared["services"].settings.agreement)


JUDGE_NAMES = {Author.ORACLE: ("an oracle", "oracle"), Author.CHECKER: ("a checker", "checker"),
               Author.VALIDATOR: ("an input validator", "input validator")}


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
        new = {m for a in shared["attempts"] if a.status == AttemptStatus.NEW for m in third_party_imports(a.code)}
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
            return Action.DEFAULT
        shared["packages"] = {"modules": wanted[0], "path": installation.path, "installed": installation.installed,
                              "failed": installation.failed, "report": installation.report()}
        shared["services"].record.event("packages", say=f"InstallPackages: {installation.report()}", **shared["packages"],
                                        seconds=installation.seconds, cached=installation.cached)
        return Action.DEFAULT


class CheckCode(Step, ParallelBatchNode):
    """The signature check (solutions only), the import check and the execution check (utils/code_checks.py,
    in the sandbox) for each new attempt before its tests; and the linter (ruff, outside the sandbox: it only
    reads the code)."""
    working = "checking that the code imports and loads"

    def prep(self, shared):
        settings = shared["services"].settings
        return [{"id": a.id, "code": a.code, "limits": settings.limits, "isolation": settings.isolation,
                 "lint": settings.lint, "packages": packages_path(shared), "sandboxes": shared["services"].sandboxes,
                 "solution": a.is_candidate,
                 "contract": None if a.source in (Author.CHECKER, Author.VALIDATOR) else sandbox_contract(shared)}
                for a in shared["attempts"] if a.status == AttemptStatus.NEW]

    def exec(self, item):
        findings = lint(item["code"], builtins=GIVEN_NAMES if item["contract"] else ()) if item["lint"] else None
        return item["id"], check_code(item["code"], item["limits"], item["isolation"], item["packages"],
                                      item["sandboxes"], item["solution"], item["contract"]), findings

    def post(self, shared, items, checked):
        for attempt_id, failure, findings in checked:
            shared["attempts"].checked(attempt_id, failure, findings)
            if failure:
                shared["services"].record.event(
                    "check_failed", say=f"  attempt {attempt_id}: {failure['check']} check failed: "
                    f"{failure['error_type']}: {failure['message'][:100]}", attempt=attempt_id, **failure)
        return Action.DEFAULT


def packages_path(shared):
    return (shared["packages"] or {}).get("path")


def sandbox_contract(shared):
    """What the sandbox's codec needs of the problem's contract (core/problem_kind.py); None for a plain problem."""
    return shared["contract"].for_sandbox()


def fresh_inputs_fit(shared):
    """Inputs made afresh (variants, random, emptied, largest) fit every family but design, whose input is a
    whole sequence of operations that made-up changes would turn into calls the class never defined, and stdio,
    whose input is a text in a format only the statement describes (its inputs come from the model's generator)."""
    return shared["contract"].family not in (Family.DESIGN, Family.STDIO)  # stdio: its inputs come from its generator


class RunTests(Step, ParallelBatchNode):
    """Runs every program (the candidates, their revisions, the oracle) that loaded on every test input it
    has not run yet: one sandbox batch per program, or per core when one program has them all. What each
    returned is kept on its attempt; JudgeRound makes the round's verdict of it."""
    working = "running the tests in the sandbox"

    def prep(self, shared):
        tests, settings = shared["test_cases"], shared["services"].settings
        work = [(a, [case for case in tests if case.key not in a.outputs]) for a in shared["attempts"]
                if a.status != AttemptStatus.REJECTED and a.check == "ok" and a.source != Author.CHECKER]
        work = [(a, todo) for a, todo in work if todo]
        shards = max(1, min(max((len(todo) for _, todo in work), default=1), os.cpu_count() or 1)) if len(work) == 1 else 1
        return [{"id": a.id, "cases": todo[k::shards], "code": a.code, "limits": settings.limits,
                 "isolation": settings.isolation, "packages": packages_path(shared), "sandboxes": shared["services"].sandboxes,
                 # a validator judges inputs as the tests write them
                 "contract": None if a.source == Author.VALIDATOR else sandbox_contract(shared)}
                for a, todo in work for k in range(shards)]

    def exec(self, shard):
        inputs = [case.input for case in shard["cases"]]
        raw = run_batch(shard["code"], inputs, shard["limits"], shard["isolation"], shard["packages"], shard["sandboxes"],
                        shard["contract"])
        return shard["id"], [(case.key, result) for case, result in zip(shard["cases"], raw)]

    def post(self, shared, shards, ran):
        for attempt_id, outputs in ran:
            shared["attempts"].ran(attempt_id, outputs)
        return Action.DEFAULT


class RunChecker(Step, ParallelBatchNode):
    """When several answers are right, or the statement promises one: the checkers (core/checkers.py) judge
    every output a program returned that they have not judged, and the trusted outputs and the outputs
    wrong by construction or next to them that their own checks need. Nothing to do on other problems."""
    working = None  # quick, and said in the verdict's lines

    def prep(self, shared):
        settings, tests, attempts = shared["services"].settings, shared["test_cases"], shared["attempts"]
        if not checker_wanted(shared):
            return []
        name = output_name(tests)
        return [{"id": a.id, "code": a.code, "calls": calls, "limits": settings.limits, "isolation": settings.isolation,
                 "packages": packages_path(shared), "sandboxes": shared["services"].sandboxes}
                for a in attempts if a.source == Author.CHECKER and a.check == "ok"
                for calls in [calls_to_check(tests, list(attempts), a, name)] if calls]

    def exec(self, item):
        said = run_batch(item["code"], item["calls"], item["limits"], item["isolation"], item["packages"], item["sandboxes"])
        return item["id"], [(input_key(call), result) for call, result in zip(item["calls"], said)]

    def post(self, shared, items, judged):
        for checker_id, verdicts in judged:
            shared["attempts"].ran(checker_id, verdicts)
        return Action.DEFAULT


class JudgeRound(Step):
    """The round's verdict (core/round_verdict.py): expected values settled by what the programs returned, every
    attempt judged on the tests that count, new ones kept or rejected, and what comes next: success,
    unconfirmed, a fresh draw of candidates, the person's edit or the search policy's choice to revise
    (failure), exhausted, or untested when no test is left."""
    working = None  # RunTests said what is happening; the verdict's lines follow

    def prep(self, shared):
        services = shared["services"]
        settings = services.settings
        return RoundFacts(tests=shared["test_cases"], attempts=list(shared["attempts"]), kind=shared["output_kind"].kind,
                          iteration=shared["iteration"], disputes_drawn=shared["dispute_draws"], rules=Rules.of(settings),
                          rest_of_draw=shared["draw_rest"] > 0, affords_a_draw=affords_a_draw(shared),
                          trust_checker=bool(settings.checker), one_answer=promises_one_answer(shared["problem"]),
                          tests_owed=shared["tests_owed"], tolerance=shared["output_kind"].tolerance,
                          raised_fresh=shared["raised_fresh"], calibration=services.calibration if settings.agreement else None)

    def exec(self, facts):
        return judge_round(facts)

    def post(self, shared, facts, verdict):
        services, attempts = shared["services"], shared["attempts"]
        settings, record = services.settings, services.record
        if verdict.settled_tests != facts.tests:
            shared["test_cases"] = verdict.settled_tests
            if settings.agreement:
                record.event("evidence", say=f"  expected values: {summary(verdict.settled_tests)}{dropped_note(verdict)}"
                             f"{checker_note(verdict, shared['output_kind'])}{repeats_note(verdict)}",
                             test_cases=records(verdict.settled_tests),
                             written_again={str(new): old for new, old in verdict.written_again.items()},
                             dropped=[name for name, _ in verdict.dropped],
                             why_dropped={name: str(source) for name, source in verdict.dropped},
                             checker=verdict.checker, checkers_refused=verdict.refused)
        for names, why in ((verdict.accepted, "no other program answered: the solution returns the model's guess on "
                                               "each, so they count"),
                           (verdict.lone, "only this code answered (the model's guess differs), left out: independent "
                                          "programs back it on others")):
            if names:  # the claim settled these: the tests as it left them
                shared["test_cases"] = verdict.tests
                record.event("evidence", say=f"  {plural(len(names), 'disputed input')} {why}",
                             test_cases=records(verdict.tests), dropped=[])
        attempts.take(verdict)
        if verdict.repeated:  # a draw's candidate returning what an earlier program returns: no new program
            record.event("draw_repeats", say="  " + "; ".join(f"attempt {new} returns what attempt {old} returns on every "
                                                            "test" for new, old in verdict.repeated.items()) +
                         " (no new program)", repeated={str(new): old for new, old in verdict.repeated.items()})
        shared["iteration"], shared["lacks"], shared["checker"] = verdict.iteration, verdict.lacks, verdict.checker
        if verdict.given_up:
            shared["message"] = verdict.given_up
        current = attempts.get(verdict.current) if verdict.current is not None else \
            attempts.choose(settings.search) or attempts.best()
        shared["current"] = current.id
        self.record_round(shared, verdict, current)
        if verdict.draw_before_claim:
            shared["dispute_draws"] += 1
            record.event("dispute_draw", say=f"  {draw_reason(verdict)}: drawing more candidates before calling it "
                         "solved", iteration=verdict.iteration, disputed=verdict.disputed, lacks=verdict.lacks,
                         solving=verdict.solving)
        return verdict.action

    @staticmethod
    def record_round(shared, verdict, current):
        record, attempts, tests = shared["services"].record, shared["attempts"], shared["test_cases"]
        if verdict.action == Action.UNTESTED:
            record.event("test_run", say="  no tests: the code parses, imports and loads", iteration=verdict.iteration,
                         attempt=current.id, passed=0, total=0, results=[], attempts=[])
            return
        trusted = f" ({trusted_name(tests)} {current.trusted_passed}/{current.trusted_total})" if current.trusted_total else ""
        fresh = [attempts.get(attempt_id) for attempt_id in verdict.settled]
        rejected = [a for a in fresh if a.status == AttemptStatus.REJECTED]
        notes = [f"{len(fresh)} new attempts"] if len(fresh) > 1 else []
        notes += [f"attempt {a.id} rejected: it broke {', '.join(a.broke)}" for a in rejected]
        round_ = (f"the {'candidates so far' if verdict.iteration else 'first candidates'} on the examples and their "
                  "variants (the model's tests to come)" if verdict.action == Action.MORE_TESTS else
                  "the draw's first candidates (its others to come)" if verdict.rest_of_draw else
                  f"iteration {verdict.iteration}/{shared['services'].settings.max_iterations}")
        record.event("test_run", say=f"  {round_}: "
                     f"{current.passed}/{current.total} tests pass{trusted}{'; ' * bool(notes)}{'; '.join(notes)}",
                     iteration=verdict.iteration, attempt=current.id, passed=current.passed, total=current.total,
                     results=current.results, attempts=[a.summary() for a in attempts if a.results is not None],
                     checkers_refused=verdict.refused)


def dropped_note(verdict):
    """The inputs dropped this round, by why: programs raised there, or they break a promise of the statement."""
    notes = {Source.REJECTED: "programs raised there, or none had an answer",
             Source.BROKEN_PROMISE: "they break what the statement promises of its inputs"}
    return "".join(f"; dropped ({why}): {', '.join(name for name, source in verdict.dropped if source == reason)}"
                   for reason, why in notes.items() if any(source == reason for _, source in verdict.dropped))


def repeats_note(verdict):
    """The new candidates that are an earlier program written again (one voter with it)."""
    again = {new: old for new, old in verdict.written_again.items() if new in verdict.settled}
    return "".join(f"; attempt {new} is attempt {old} written again (one voter)" for new, old in again.items())


def checker_note(verdict, kind):
    if kind.kind != OutputKind.ANY_VALID:
        return ""
    if verdict.checker is not None:
        return f"; outputs judged by checker {verdict.checker}"
    return f"; no checker passes its checks ({'; '.join(verdict.refused) or 'none written yet'})"


def draw_reason(verdict):
    reasons = {"inputs disputed": plural(len(verdict.disputed), "disputed input"),
               "nothing beyond the statement's examples": "nothing beyond the statement's examples backs it",
               "no checker": "no checker to judge its outputs"}
    return "; ".join(reasons[lack] for lack in verdict.lacks if lack in reasons) or \
        "too few programs passing the examples agree with it for the confidence a claim needs"


def judged_by_checker(shared):
    """Several answers are right and a checker judges outputs: programs agree where its verdicts agree."""
    return shared["output_kind"].kind == OutputKind.ANY_VALID and shared["checker"] is not None


def plural(count, noun):
    return f"{count} {noun}{'s' * (count != 1)}"


def first_input(tests):
    """The input a claim's last checks start from: the statement's first example, else the first test's; None
    without tests."""
    inputs = [case.input for case in tests if case.origin == Origin.STATEMENT] or [case.input for case in tests]
    return inputs[0] if inputs else None


def claim_then_others(shared, others, skip=()):
    """[(attempt id, code)]: the claim, then up to `others` other versions passing every counted test, the best
    ranked first: what a claim's last checks try. Versions in `skip` (already found too slow) are left out."""
    attempts = shared["attempts"]
    claim = attempts.get(shared["current"])
    passing = sorted((a for a in attempts if a.is_candidate and a.solves and a.id != claim.id and a.id not in skip),
                     key=lambda a: a.rank(), reverse=True)
    return [(a.id, a.code) for a in [claim, *passing][claim.id in skip:others + 1]]


def affords_a_draw(shared):
    """The call and token budgets leave room for a draw of `samples` candidates."""
    settings = shared["services"].settings
    return shared["services"].budget.affords(settings.samples, settings.samples * (CODE_TOKENS + DRAW_PROMPT_TOKENS))


def rest_of_draw_owed(shared):
    """The short first draw's other candidates (settings.first_draw) are still to come, and the budget has room."""
    return shared["draw_rest"] > 0 and affords_a_draw(shared)


def ask_rest_of_draw(shared, why):
    """A claim's last check failed with no other version to hand over: the first draw's rest comes first, and
    the claim is judged again with them."""
    shared["attempts"].withdraw_claim()
    shared["services"].record.event("rest_of_draw", say=f"  {why}: asking the draw's other candidates first")
    return Action.REDRAW


class TellApart(Step):
    """A claim's first last check: small fresh inputs shaped like the run's (core/random_inputs.py) run on the
    claim and on up to two other versions passing every counted test. Where the claim and one of them both
    return and differ, one of the two is wrong on an input no test had (LeetCode 947: a false success beside a
    right candidate; S* picks between candidates the same way). Up to APART_TESTS such inputs join the tests as
    variants and the round is judged again: their values are settled like every variant's (the oracle or a
    majority, else disputed, and a dispute draws candidates before any claim). Each set of versions is tried
    once; nothing to do with one program, with --variants 0, where several answers are right (the checker
    judges those), or where one answer is promised and no checker finds the inputs that break the promise.
    Not the oracle: a brute force enumerates in its own order, and differs from a right candidate on a fresh
    input with two answers that the statement may rule out in words only (a Two Sum without its promise); over
    the records it would have caught one more false success (HumanEval/74) at no cost, a reading kept for more
    measurement (bench.tell_apart --oracle at 97a7d49)."""
    working = None  # a few sandbox starts; its line says what it found

    def prep(self, shared):
        settings = shared["services"].settings
        if not settings.variants or not settings.agreement or shared["output_kind"].kind == OutputKind.ANY_VALID \
                or not fresh_inputs_fit(shared):
            return None
        if promises_one_answer(shared["problem"]) and shared["checker"] is None:
            return None  # a fresh input may break the promise, and right programs differ there (Two Sum's two pairs)
        versions = claim_then_others(shared, 2)
        one_each = {}  # program -> its first version (the claim first): a program written again tells nothing apart
        for attempt_id, code in versions:
            one_each.setdefault(program_key(code), (attempt_id, code))
        tried = sorted(attempt_id for attempt_id, _ in one_each.values())
        left = shared["services"].budget.seconds_left()  # within --time-limit: at most what is left, and not under 1 s
        if len(one_each) < 2 or tried in shared["told_apart"] or (left is not None and left < 1):
            return None
        limits = settings.limits if left is None else replace(settings.limits, batch_timeout=min(settings.limits.batch_timeout, left))
        made = shaped_inputs([case.input for case in shared["test_cases"]], shared["problem"], APART_INPUTS,
                             seed=(settings.seed or 0) + len(shared["told_apart"]))
        return made and {"inputs": made, "versions": list(one_each.values()), "tried": tried,
                         "comparison": shared["output_kind"].comparison, "limits": limits,
                         "isolation": settings.isolation, "packages": packages_path(shared),
                         "sandboxes": shared["services"].sandboxes, "contract": sandbox_contract(shared)}

    def exec(self, job):
        """The indices of the inputs that tell the claim apart from another version, what each version returned
        there, and on how many inputs each raised where another returned."""
        if not job:
            return [], [], []
        ran = [run_batch(code, job["inputs"], job["limits"], job["isolation"], job["packages"], job["sandboxes"],
                         job["contract"]) for _, code in job["versions"]]
        apart = telling_apart(ran[0], ran[1:], job["comparison"])[:APART_TESTS]
        return apart, [[results[i]["repr"] if results[i]["ok"] else results[i]["error_type"] for results in ran]
                       for i in apart], raised_where_others_return(ran)

    def post(self, shared, job, found):
        if not job:
            return Action.SUCCESS
        apart, returned, raised = found
        shared["told_apart"].append(job["tried"])
        ids = [attempt_id for attempt_id, _ in job["versions"]]
        for attempt_id, count in zip(ids, raised):  # the verdict's tie-break between versions (core/round_verdict.py)
            shared["raised_fresh"][attempt_id] = max(count, shared["raised_fresh"].get(attempt_id, 0))
        inputs = [job["inputs"][i] for i in apart]
        say = None
        if not apart and min(raised) < raised[0]:  # they agree wherever both return: the one that raises less
            last = ids[raised.index(min(raised))]
            shared["attempts"].hand_over(last)
            shared["current"] = last
            say = (f"  attempt {ids[0]} raised on {plural(raised[0], 'fresh input')} where another version returned; "
                   f"attempt {last}, passing the same tests and returning the same elsewhere, raised on {min(raised)} "
                   "and is handed over instead")
        if apart:
            names = [f"apart_{len(shared['told_apart'])}_{k}" for k in range(1, len(apart) + 1)]
            shared["test_cases"] = [*shared["test_cases"], *(TestCase(name, made, None, Origin.VARIANT)
                                                             for name, made in zip(names, inputs))]
            shared["attempts"].withdraw_claim()
            say = (f"  attempt {ids[0]} and {'another version' if len(ids) == 2 else 'other versions'} passing the "
                   f"same tests ({', '.join(map(str, ids[1:]))}) return different values on {plural(len(apart), 'fresh input')} "
                   f"({'; '.join(shown(made) for made in inputs)}): judged again with them")
        shared["services"].record.event("tell_apart", say=say, tried=len(job["inputs"]), versions=ids, inputs=inputs,
                                        returned=returned, raised=raised)
        return Action.RERUN if apart else Action.SUCCESS


APART_INPUTS = 64  # fresh inputs a claim's versions run on: 947's two found 0-9 apart in 32 by seed, 5-17 in 64
APART_TESTS = 4    # of those telling them apart, the ones that join the tests


class TryEmptyInputs(Step):
    """A claim's check that it does not raise where others return: the solution on the statement's first input
    with one list or string emptied (core/empty_inputs.py), where the statement allows that. When it raises
    on more of them than another version passing the same tests, that version is handed over (up to two are
    tried, the best ranked first). It never blocks a claim: what a version returns there is not judged (the
    input has no expected value), only whether it returns."""
    working = None  # a sandbox start or two

    def prep(self, shared):
        made = fresh_inputs_fit(shared) and emptied_inputs(shared["problem"], first_input(shared["test_cases"]))
        if not made:
            return None
        settings = shared["services"].settings
        return {"inputs": made, "versions": claim_then_others(shared, 2), "limits": settings.limits,
                "isolation": settings.isolation, "packages": packages_path(shared), "sandboxes": shared["services"].sandboxes,
                "contract": sandbox_contract(shared)}

    def exec(self, job):
        """[(attempt id, how many of the inputs it raised on)], the claim first, up to the first version that
        raised on fewer than the claim."""
        raised = []
        for attempt_id, code in job["versions"] if job else ():
            results = run_batch(code, job["inputs"], job["limits"], job["isolation"], job["packages"], job["sandboxes"],
                                job["contract"])
            raised.append((attempt_id, sum(not result["ok"] for result in results)))
            if raised[-1][1] < raised[0][1] or not raised[0][1]:
                break
        return raised

    def post(self, shared, job, raised):
        if not raised:
            return Action.SUCCESS
        (claim, claim_raised), (last, last_raised) = raised[0], raised[-1]
        handed_over, say = claim, None
        if claim_raised and last_raised >= claim_raised and rest_of_draw_owed(shared):
            return ask_rest_of_draw(shared, f"attempt {claim} raised with an emptied list or string")
        if last_raised < claim_raised:
            shared["attempts"].hand_over(last)
            shared["current"] = handed_over = last
            say = (f"  attempt {claim} raised on {plural(claim_raised, 'input')} with an emptied list or string "
                   f"({'; '.join(shown(inputs) for inputs in job['inputs'])}); attempt {last}, passing the same tests, "
                   f"raised on {last_raised} and is handed over instead")
        shared["services"].record.event("empty_check", say=say, inputs=job["inputs"], handed_over=handed_over,
                                        raised=[{"attempt": attempt_id, "raised": count} for attempt_id, count in raised])
        return Action.SUCCESS


class TimeLargestInput(Step):
    """A claim's last check, on time alone: the solution on the statement's largest input (core/largest_input.py),
    with settings.speed_limit seconds to return (less if --time-limit leaves less). When it does not, another
    version passing the same tests that does is handed over instead (up to two, the best ranked first); when
    none does, one draw of candidates told so (`too_slow`; versions found slow are not timed again), and after
    it the run ends unconfirmed, saying so. What it returns is not judged: the input has no expected value, and
    one that breaks a promise made in words may make a right program raise. Nothing to do where no such input
    is read."""
    working = None  # quick when the solution is; its line says when it was not

    def prep(self, shared):
        settings = shared["services"].settings
        made = largest_input(shared["problem"], first_input(shared["test_cases"])) \
            if settings.speed_limit and fresh_inputs_fit(shared) else None
        if made is None:
            return None
        budget = shared["services"].budget
        left = budget.seconds_left()  # within --time-limit: a try gets at most what is left of the run, 1 s at least
        limit = settings.speed_limit if left is None else round(max(1.0, min(settings.speed_limit, left)), 1)
        limits = replace(settings.limits, test_timeout=limit, batch_timeout=limit + 10)
        slow = shared["too_slow"]["attempts"] if shared["too_slow"] else ()
        return {"input": made, "versions": claim_then_others(shared, 2, skip=slow), "limits": limits, "slow": slow,
                "isolation": settings.isolation, "packages": packages_path(shared), "sandboxes": shared["services"].sandboxes,
                "stopped": budget.stopped, "contract": sandbox_contract(shared)}

    def exec(self, job):
        """[(attempt id, sandbox result)] up to the first version that returned in time."""
        timed = []
        for attempt_id, code in job["versions"] if job else ():
            result = run_batch(code, [job["input"]], job["limits"], job["isolation"], job["packages"], job["sandboxes"],
                               job["contract"])[0]
            timed.append((attempt_id, result))
            if not result["timed_out"] or job["stopped"]():
                break
        return timed

    def post(self, shared, job, timed):
        if not job:
            return Action.SUCCESS
        limit, claim = job["limits"].test_timeout, shared["current"]
        seconds = [{"attempt": attempt_id, "seconds": None if r["timed_out"] else round(r["ms"] / 1000, 3)}  # None: timed out
                   for attempt_id, r in timed]
        newly_slow = [attempt_id for attempt_id, r in timed if r["timed_out"]]
        if newly_slow:  # kept for the rest of the run: the next draw is told, and these are not timed again
            shared["too_slow"] = {"drawn": False, **(shared["too_slow"] or {}), "input": job["input"], "limit_s": limit,
                                  "attempts": [*job["slow"], *newly_slow]}
        if timed and not timed[-1][1]["timed_out"]:
            return self.in_time(shared, job, seconds, claim)
        slow = too_slow_line(claim, job)
        if rest_of_draw_owed(shared):
            return ask_rest_of_draw(shared, slow)
        others = len(set(shared["too_slow"]["attempts"]) - {claim})
        slow += f", nor did {plural(others, 'other version')} passing the same tests" if others else ""
        if not shared["too_slow"]["drawn"] and affords_a_draw(shared):
            shared["too_slow"]["drawn"] = True
            shared["attempts"].withdraw_claim()
            shared["services"].record.event("speed_check", say=f"  {slow}: drawing candidates told so", input=job["input"],
                                            limit_s=limit, seconds=seconds, handed_over=None, redraw=True)
            return Action.REDRAW
        drawn = " (after a draw told so)" if shared["too_slow"]["drawn"] else ""
        shared["lacks"], shared["message"] = [TOO_SLOW], f"{slow}{drawn}"
        shared["services"].record.event("speed_check", say=f"  {slow}{drawn}", input=job["input"], limit_s=limit,
                                        seconds=seconds, handed_over=None, redraw=False)
        return Action.UNCONFIRMED

    @staticmethod
    def in_time(shared, job, seconds, claim):
        """The last version tried returned in time: it stands, or is handed over if the claim did not."""
        last, say = seconds[-1]["attempt"], None
        if last != claim:
            shared["attempts"].hand_over(last)
            shared["current"] = last
            say = (f"  {too_slow_line(claim, job)}; attempt {last}, passing the same tests, returned in "
                   f"{seconds[-1]['seconds']:g} s and is handed over instead")
        shared["services"].record.event("speed_check", say=say, input=job["input"], limit_s=job["limits"].test_timeout,
                                        seconds=seconds, handed_over=last)
        return Action.SUCCESS


def too_slow_line(claim, job):
    return (f"attempt {claim} did not return within {job['limits'].test_timeout:g} s on the statement's largest input "
            f"({shown(job['input'])})")


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
        shared["services"].record.event("failure_reflection", say="  failure analysed", attempt=shared["current"],
                                        reflection=answer)
        return Action.DEFAULT


def branch_view(shared):
    """What a step about the current attempt sees: its code, its results and its branch's notes only."""
    attempts, current = shared["attempts"], shared["attempts"].get(shared["current"])
    return {"test_cases": shared["test_cases"], "function_code": current.code, "test_results": current.results or [],
            "notes": attempts.branch_notes(current.id), "current": current.id, "check": current.check,
            "lint": current.lint}


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
    correct the model's own tests (and add some, with revise_adds_tests), never a protected one (trusted,
    settled by programs agreeing, a variant, a guess a program returned): such an entry is refused and the
    refusal fed back. Tests are shared by every branch, so the first sample that corrects tests sets them;
    each new code is a child attempt of the one revised."""
    working = "asking the model which is wrong, the tests or the code"
    unusable_ends_unsolved, answer_name = True, "revision"  # the versions so far stand; the best is handed over

    def prep(self, shared):
        return {**self.model_inputs(shared), **branch_view(shared)}

    def exec(self, inputs):
        protected = [i for i, case in enumerate(inputs["test_cases"]) if case.protected]
        request = revise_request(inputs["function_code"], failure_report(inputs), inputs["notes"],
                                 [trusted_label(inputs["test_cases"][i]) for i in protected])
        names, settings = [case.name for case in inputs["test_cases"]], inputs["settings"]
        max_tests = settings.max_tests if settings.revise_adds_tests else len(names)
        parse = partial(parse_revise_answer, test_names=names, max_tests=max_tests, trusted=protected,
                        function=inputs["solution_name"])
        return self.ask_samples(inputs, request, parse, max_tokens=REVISE_TOKENS)[0]

    def use_answer(self, shared, inputs, answers):
        # Tests are shared by every branch: the first sample that corrects any sets them for all.
        answer = next((a for a in answers if a["test_cases"]), answers[0])
        tests, changed = corrected_tests(shared["test_cases"], answer)
        if changed:
            shared["test_cases"] = unique_names(tests)
        parent, attempts = shared["current"], shared["attempts"]
        new = [attempts.add(a["function_code"], parent, Author.REVISE, shared["iteration"])
               for a in answers if a["function_code"]]
        ignored = [text for a in answers for text in a["ignored"]]
        for text in ignored:
            attempts.note(parent, f"refused: {text}")
        corrected = [i for i in sorted(answer["test_cases"]) if i < len(inputs["test_cases"])]
        added = len(answer["test_cases"]) - len(corrected)
        summary = f"  tests corrected: {', '.join(str(i + 1) for i in corrected) or 'none'}"
        summary += f"; tests added: {added}" if added else ""
        new_ids = [a.id for a in new if a]
        summary += f"; new code: attempt {', '.join(map(str, new_ids))}" if new_ids else "; code unchanged"
        summary += f"; {len(ignored)} entries refused" if ignored else ""
        shared["services"].record.event(
            "revision", say=summary, reasoning=answer["reasoning"], iteration=shared["iteration"], attempt=parent,
            ignored=ignored, new_attempts=new_ids, revised_tests={str(i + 1): c for i, c in answer["test_cases"].items()},
            test_cases=records(shared["test_cases"]), function_code=answer["function_code"])
        return Action.DEFAULT


def corrected_tests(tests, answer):
    """The tests with a revision's corrections (by index) and additions (numbered on from the last, without
    gaps: the parser checked); each becomes the model's again, its new expected value a guess, marked as
    Revise's (a guess written after seeing the code backs no claim: TestCase.backs_a_claim)."""
    tests, why = list(tests), answer["reasoning"][:300]
    for index in sorted(answer["test_cases"]):
        case = answer["test_cases"][index]
        if index < len(tests):
            tests[index] = TestCase(case["name"] or tests[index].name, case["input"], case["expected"], Origin.MODEL,
                                    guess=case["expected"], revised=why)
        else:
            tests.append(TestCase(case["name"] or f"test_{index + 1}", case["input"], case["expected"], Origin.MODEL,
                                  guess=case["expected"], revised=why))
    return tests, bool(answer["test_cases"])


class ReadAgain(ModelStep):
    """A claim's check against a misreading every program of the run shares (on recent problems most false claims
    were such: a tie rule, adjacency, a neighbour condition ignored by the candidates and the oracle alike). The
    model lists the statement's rules in words, then writes a brute force from that list, not from the
    candidates' request. Where that program passes the statement's examples and returns otherwise than the claim
    on a counted input or a fresh one, the claim is withheld (unconfirmed, saying where). It never makes a claim:
    where it fails an example, or no answer or no time is left, it has no say and the claim stands on its evidence
    (its event's `said`: agrees, no_say, differs or none). Its agreement is no evidence the confidence weighs: on the
    recent set it agreed with false claims as readily as with right ones (issue 86)."""
    working = None  # seldom asked (can_change_ending): its own line says what it found
    optional = True

    def prep(self, shared):
        settings, budget = shared["services"].settings, shared["services"].budget
        if not settings.second_reading or not settings.agreement or shared["output_kind"].kind == OutputKind.ANY_VALID \
                or not budget.affords(2, 2 * (CODE_TOKENS + DRAW_PROMPT_TOKENS)) or not self.can_change_ending(shared):
            return None
        tests = shared["test_cases"]
        counted = [case for case in tests if case.counted]
        # where one answer is promised, a fresh input may have two, and right programs differ there (Two Sum's pairs):
        # only the inputs the run settled (those breaking the promise were dropped) are compared
        fresh = shaped_inputs([case.input for case in tests], shared["problem"], APART_INPUTS,
                              seed=(settings.seed or 0) + SECOND_READING_SEED) \
            if fresh_inputs_fit(shared) and not promises_one_answer(shared["problem"]) else []
        left = budget.seconds_left()
        limits = settings.limits if left is None else \
            replace(settings.limits, batch_timeout=max(1.0, min(settings.limits.batch_timeout, left)))
        return {**self.model_inputs(shared), "claim": shared["attempts"].get(shared["current"]).code,
                "examples": [case for case in counted if case.trusted],
                "inputs": [case.input for case in counted if not case.trusted] + fresh, "limits": limits,
                "comparison": shared["output_kind"].comparison, "isolation": settings.isolation,
                "packages": packages_path(shared), "sandboxes": shared["services"].sandboxes,
                "contract": sandbox_contract(shared)}

    @staticmethod
    def can_change_ending(shared):
        """Whether the reading's answer can change how the run ends: only a veto can (it never lifts a claim), so it
        is asked where the claim would stand without it. Where the confidence already falls short, or no second
        program backs the claim, the run ends unconfirmed either way and its two calls (about 15 s) buy nothing."""
        calibration = shared["services"].calibration
        if calibration is None:
            return True  # no confidence to weigh: the reading's veto is all there is
        found = evidence_of_attempts(shared["attempts"], shared["test_cases"], shared["current"],
                                     shared["output_kind"].comparison, judged_by_checker(shared))
        return not found.alone and weigh(calibration, found).enough

    def exec(self, job):
        if job is None:
            return None
        rules = self.ask(job, rules_request(), parse_rules_answer, max_tokens=REFLECTION_TOKENS, label="rules")
        code = self.ask(job, restated_request(rules, job["examples"]), partial(parse_code_answer, function=job["solution_name"]),
                        max_tokens=CODE_TOKENS, label="program", watch=watch_code())["function_code"]
        run = partial(run_batch, limits=job["limits"], isolation=job["isolation"], packages=job["packages"],
                      group=job["sandboxes"], contract=job["contract"])
        examples = run(code, [case.input for case in job["examples"]]) if job["examples"] else []
        if not job["examples"] or not all(r["ok"] and outputs_match(r["value"], case.expected, job["comparison"])
                                          for r, case in zip(examples, job["examples"])):
            return {"rules": rules, "code": code, "said": "no_say"}
        mine, theirs = run(job["claim"], job["inputs"]), run(code, job["inputs"])
        apart = [i for i in telling_apart(mine, [theirs], job["comparison"])  # no answer either way: an input the
                 if not (mine[i]["value"] in NO_ANSWER and theirs[i]["value"] in NO_ANSWER)]  # statement rules out in words
        return {"rules": rules, "code": code, "said": "differs" if apart else "agrees", "compared": len(job["inputs"]),
                "apart": [{"input": job["inputs"][i], "claim": mine[i]["repr"], "reading": theirs[i]["repr"]} for i in apart[:3]],
                "differ": len(apart)}

    def without_answer(self, shared, failure):
        """No answer, or no time left for one: no say; the claim stands on its evidence."""
        shared["second_reading"] = "none"
        shared["services"].record.event("second_reading", say=f"  no second reading ({failure.message}): the claim is "
                                        "weighed without it", said="none")
        return Action.SUCCESS

    def use_answer(self, shared, job, found):
        if found is None:
            return Action.SUCCESS
        record, said = shared["services"].record, found["said"]
        shared["second_reading"] = said
        if said != "differs":
            record.event("second_reading", say="  a second reading of the statement " + (
                f"agrees on {plural(found['compared'], 'input')}" if said == "agrees" else "fails its examples: no say"),
                **found)
            return Action.SUCCESS
        first = found["apart"][0]
        more = f" (and on {plural(found['differ'] - 1, 'more input')})" if found["differ"] > 1 else ""
        where = (f"a program written from the statement's rules, listed first, returns {first['reading'][:60]} where attempt "
                 f"{shared['current']} returns {first['claim'][:60]} on {shown(first['input'])}{more}")
        shared["attempts"].withdraw_claim()
        shared["lacks"], shared["message"] = [SECOND_READING], where
        record.event("second_reading", say=f"  {where}: no claim", **found)
        return Action.UNCONFIRMED


# an input on which the claim and the reading both return one of these has no answer either way (the statement
# rules it out in words); looser than core/expected_values.py's _no_answer, which also needs one of them to be None
NO_ANSWER = (None, [], "", {})
SECOND_READING_SEED = 7919  # its fresh inputs are not TellApart's (whose seeds count up from the run's)


class Finish(Step):
    """How the run ended (core/run_outcome.py), the version handed over made current. It ends the flow, unless
    --explain wires ExplainSolution after it."""
    working = None  # main.py prints the outcome

    def __init__(self, status):
        super().__init__()
        self.status = status

    def prep(self, shared):
        by_equality = (shared["output_kind"].kind == OutputKind.ANY_VALID and shared["checker"] is None
                       and shared["services"].settings.agreement)
        services = shared["services"]  # a run the time limit cut short says so, whatever step it cut
        settings = services.settings  # the model's own expected values (agreement off) are not what it was fitted on
        return RunState(shared["attempts"], shared["test_cases"], shared["current"], shared["iteration"],
                        shared["message"] or services.budget.cut_short(), shared["dispute_draws"], shared["lacks"],
                        by_equality, settings.caller, services.calibration if settings.agreement else None,
                        settings.model.model, shared["second_reading"], shared["output_kind"].comparison,
                        judged_by_checker(shared))

    def exec(self, state):
        return conclude(self.status, state)

    def post(self, shared, state, outcome):
        if outcome.attempt is not None:
            shared["current"] = outcome.attempt
        if self.status == RunStatus.SOLVED and outcome.status != RunStatus.SOLVED:
            shared["attempts"].withdraw_claim()  # the confidence fell short of a claim
        shared["status"], shared["message"], shared["confidence"] = outcome.status, outcome.message, outcome.confidence
        return None


class AfterEnding(ModelStep):
    """A model step once the run has ended (wired after the endings, flow.py's `after_ending`): it never changes
    how the run ended. A failed, refused or unaffordable answer is skipped (its event says so), and it hands on to
    the next such step, or ends the flow."""
    optional = True

    def without_answer(self, shared, failure):
        event, said = self.skipped
        shared["services"].record.event(event, say=f"  {said}: {failure.message}", node=type(self).__name__)
        return Action.DEFAULT


class ExplainSolution(AfterEnding):
    """--explain: once the run has ended, the model explains the code handed over in a few sentences, for
    the person who will read it: explanation.md beside solution.py, and run.json. It never changes how
    the run ended: a failed or unaffordable explanation is skipped."""
    working = "asking the model to explain the solution"
    skipped = ("explanation_skipped", "no usable explanation; the outcome stands")

    def prep(self, shared):
        current = shared["attempts"].get(shared["current"])
        return {**self.model_inputs(shared), "code": current and current.code, "outcome": shared["message"],
                "path": os.path.join(shared["services"].out_dir, "explanation.md")}

    def exec(self, inputs):
        if not inputs["code"]:
            return None
        explanation = self.ask(inputs, explain_request(inputs["code"], inputs["outcome"]),
                               partial(parse_prose, key="explanation", needs="an explanation: at most five sentences"),
                               max_tokens=REFLECTION_TOKENS)
        write_atomically(inputs["path"], f"# How solution.py works\n\n{explanation}\n\nThe run: {inputs['outcome']}\n")
        return explanation

    def use_answer(self, shared, inputs, explanation):
        if explanation:
            shared["services"].record.event("explanation", say=f"  explained in {inputs['path']}", explanation=explanation)
        return Action.DEFAULT
