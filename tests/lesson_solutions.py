"""Answers to the lessons' exercises, injected by tests/test_notebooks.py.

The notebooks ship each exercise's answer cell as a blank (`...`) for the
student to fill in. The tests run every lesson with these cells in place of the
blanks (the checks must pass), and the lessons listed here once more with the
blanks (every check must fail, so a check cannot pass for anything).

SOLUTIONS maps a notebook's stem to {answer cell id: the solution's source};
CHECKS maps it to the ids of the cells that check those answers.
"""

SOLUTIONS: dict[str, dict[str, str]] = {
    "02_grad_fn_and_saved_tensors": {
        "l02-37": 'none_slot = "_saved_other"',
        "l02-40": 'sigmoid_slot = "_saved_result"',
        "l02-43": "n_accumulate = 1",
        "l02-57": "n_pack = 3",
    },
    "03_backward_step_by_step": {
        "l03-20": 'third_node = "l3"',
        "l03-23": "w1_grad_after_5 = None\nw3_grad_after_5 = 10.0",
        "l03-26": "l1_step = 7\nl1_grad_in = 7.0",
        "l03-29": "w2_grad_with_hook = 8.0",
    },
}

CHECKS: dict[str, list[str]] = {
    "02_grad_fn_and_saved_tensors": ["l02-38", "l02-41", "l02-44", "l02-58"],
    "03_backward_step_by_step": ["l03-21", "l03-24", "l03-27", "l03-30"],
}
