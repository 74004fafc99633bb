"""torch.no_grad & co. as context managers and decorators that do nothing:
ctensor has no autograd, so code written with them runs unchanged."""


class no_grad:
    """A no-op stand-in for torch.no_grad/enable_grad/inference_mode/set_grad_enabled."""

    def __init__(self, mode=True):  # set_grad_enabled(mode) and inference_mode(mode) take a flag
        del mode

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return None  # exceptions propagate

    def __call__(self, fn):
        return fn


enable_grad = no_grad
inference_mode = no_grad
set_grad_enabled = no_grad
