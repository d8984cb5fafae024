"""Jupyter widgets: the graph view (anywidget) and the stepper around it."""
