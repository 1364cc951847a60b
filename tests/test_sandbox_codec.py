"""The sandbox runner's codec (utils/sandbox_runner.py) for tree, design and in-place problems, through the real
sandbox: tests stay in list form, nodes are built and turned back without recursion, and whatever generated code
returns (cycles, shared nodes, deep or huge structures) ends as a test's error, never a hang or a crash."""
import textwrap

from core.problem_kind import Contract, Family
from utils.sandbox import Limits, RunCodeServer, run_batch

LIMITS = Limits(test_timeout=5, batch_timeout=30)
MAX_DEPTH = Contract(Family.TREE, trees=("root",)).for_sandbox()
REVERSE = Contract(Family.TREE, lists=("head",), returns="list").for_sandbox()
INVERT = Contract(Family.TREE, trees=("root",), returns="tree").for_sandbox()


def run(code, inputs, contract):
    return run_batch(textwrap.dedent(code), inputs, LIMITS, contract=contract)


def test_a_level_order_list_is_built_into_treenodes_before_run_code_is_called():
    results = run("""
        def run_code(root: Optional[TreeNode]) -> int:
            return 0 if root is None else 1 + max(run_code(root.left), run_code(root.right))
        """, [{"root": [3, 9, 20, None, None, 15, 7]}, {"root": []}, {"root": [1, None, 2]}], MAX_DEPTH)
    assert [r["value"] for r in results] == [3, 0, 2]


def test_a_returned_tree_comes_back_in_level_order_with_trailing_nulls_dropped():
    results = run("""
        def run_code(root):
            if root:
                root.left, root.right = run_code(root.right), run_code(root.left)
            return root
        """, [{"root": [4, 2, 7, 1, 3, 6, 9]}, {"root": [1, 2]}, {"root": []}], INVERT)
    assert [r["value"] for r in results] == [[4, 7, 2, 9, 6, 3, 1], [1, None, 2], []]


def test_code_annotated_with_typed_node_classes_loads_and_runs():
    results = run("""
        def run_code(head: ListNode[int] | None) -> ListNode[int] | None:
            return head.next if head else None
        """, [{"head": [1, 2, 3]}], REVERSE)
    assert [r["value"] for r in results] == [[2, 3]]


def test_a_list_is_built_into_listnodes_and_a_returned_head_comes_back_as_a_list():
    results = run("""
        def run_code(head):
            previous = None
            while head:
                head.next, previous, head = previous, head, head.next
            return previous
        """, [{"head": [1, 2, 3, 4, 5]}, {"head": []}], REVERSE)
    assert [r["value"] for r in results] == [[5, 4, 3, 2, 1], []]


def test_a_returned_linked_list_with_a_cycle_is_an_error_not_a_hang():
    result = run("""
        def run_code(head):
            head.next.next = head
            return head
        """, [{"head": [1, 2, 3]}], REVERSE)[0]
    assert not result["ok"] and not result["timed_out"]
    assert result["error_type"] == "ValueError" and "cycle" in result["message"]


def test_a_returned_tree_whose_node_has_two_parents_is_an_error():
    result = run("""
        def run_code(root):
            root.right = root.left
            return root
        """, [{"root": [1, 2]}], INVERT)[0]
    assert result["error_type"] == "ValueError" and "shared by two parents" in result["message"]


def test_a_returned_tree_with_a_cycle_is_an_error():
    result = run("""
        def run_code(root):
            root.left.left = root
            return root
        """, [{"root": [1, 2]}], INVERT)[0]
    assert result["error_type"] == "ValueError" and "cycle" in result["message"]


def test_a_tree_deeper_than_pythons_recursion_limit_is_built_and_returned_without_recursion():
    depth = 20_000
    chain = [1] + [None, 1] * (depth - 1)  # every node a right child: depth 20,000
    result = run("""
        def run_code(root):
            return root
        """, [{"root": chain}], INVERT)[0]
    assert result["ok"] and len(result["value"]) == len(chain) and result["value"] == chain


def test_a_returned_structure_of_more_than_100k_nodes_is_an_error():
    result = run("""
        def run_code(head):
            first = node = ListNode(0)
            for i in range(100_001):
                node.next = ListNode(i)
                node = node.next
            return first
        """, [{"head": []}], REVERSE)[0]
    assert result["error_type"] == "OverflowError" and "100,000" in result["message"]


def test_a_list_form_that_is_no_tree_is_the_tests_error():
    result = run("def run_code(root):\n    return 0\n", [{"root": [1, None, None, 2]}], MAX_DEPTH)[0]
    assert result["error_type"] == "ValueError" and "has no parent" in result["message"]


MIN_STACK = """
    class MinStack:
        def __init__(self):
            self.items = []

        def push(self, val):
            self.items.append((val, min(val, self.items[-1][1]) if self.items else val))

        def pop(self):
            self.items.pop()

        def top(self):
            return self.items[-1][0]

        def get_min(self):
            return self.items[-1][1]
    """
DESIGN = Contract(Family.DESIGN, design_class="MinStack").for_sandbox()


def test_a_design_test_replays_its_operations_on_a_fresh_instance_and_returns_each_result():
    operations = ["MinStack", "push", "push", "push", "getMin", "pop", "top", "getMin"]
    arguments = [[], [-2], [0], [-3], [], [], [], []]
    results = run(MIN_STACK, [{"operations": operations, "arguments": arguments},
                              {"operations": ["MinStack", "push", "top"], "arguments": [[], [5], []]}], DESIGN)
    assert [r["value"] for r in results] == [[None, None, None, None, -3, None, 0, -2], [None, None, 5]]


def test_code_without_the_named_class_fails_to_load_saying_which_class():
    result = run("def run_code():\n    return 1\n", [{"operations": ["MinStack"], "arguments": [[]]}], DESIGN)[0]
    assert result["error_type"] == "NameError" and "the class MinStack" in result["message"]


def test_design_lists_of_different_lengths_are_the_tests_error():
    result = run(MIN_STACK, [{"operations": ["MinStack", "push"], "arguments": [[]]}], DESIGN)[0]
    assert result["error_type"] == "ValueError" and "same length" in result["message"]


def test_an_in_place_answer_is_the_argument_after_the_call():
    contract = Contract(Family.IN_PLACE, in_place="nums").for_sandbox()
    result = run("""
        def run_code(nums):
            nums.sort(key=lambda n: n == 0)
        """, [{"nums": [0, 1, 0, 3, 12]}], contract)[0]
    assert result["value"] == [1, 3, 12, 0, 0]


def test_an_in_place_answer_with_a_returned_k_is_k_and_the_first_k_items():
    contract = Contract(Family.IN_PLACE, in_place="nums", return_too=True).for_sandbox()
    result = run("""
        def run_code(nums):
            kept = sorted(set(nums))
            nums[:len(kept)] = kept
            return len(kept)
        """, [{"nums": [0, 0, 1, 1, 1, 2, 2, 3, 3, 4]}], contract)[0]
    assert result["value"] == [5, [0, 1, 2, 3, 4]]


def test_a_plain_problem_gets_no_node_classes():
    result = run_batch("def run_code():\n    return TreeNode\n", [{}], LIMITS)[0]
    assert result["error_type"] == "NameError"


def test_the_served_runner_honours_the_contract_too():
    import marshal
    with RunCodeServer("def run_code(head):\n    return head\n", LIMITS, contract=REVERSE) as solution:
        reply = solution.call(marshal.dumps(((), {"head": [1, 2]})))
    assert reply["ok"] and reply["repr"] == "[1, 2]"
