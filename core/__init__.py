"""codeloop's own logic: how tests get their expected values, how code is judged, what the model is asked.

Nothing here calls the model, runs code or touches a file: these modules import only each other and the
standard library, so every rule can be tested as a table. The outside world is reached through utils/.
"""
