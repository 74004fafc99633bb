"""ctensor.Size: torch.Size's twin, a tuple subclass printed as ctensor.Size([2, 3]).
The extension module makes Tensor.shape & co. of this class (registered by
__init__.py through ctensor._C._set_size_type)."""


class Size(tuple):
    """A tensor's shape: a tuple of ints."""

    __slots__ = ()

    def __repr__(self):
        return f"ctensor.Size({list(self)!r})"

    def numel(self):
        """Product of the sizes."""
        n = 1
        for s in self:
            n *= s
        return n

    # Size + tuple, Size * n and Size[a:b] stay Sizes, as torch.Size's do.
    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__


Size.__module__ = "ctensor"
