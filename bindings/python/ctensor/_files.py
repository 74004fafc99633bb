"""progress= for the loads that read a file into memory: ctensor.load (.npy,
mmap_mode=None) and ctensor.load_file (safetensors). The extension's load and
load_file take a callable progress(done, total); this module adds
progress=True, a tqdm bar when tqdm is installed, else one line on stderr."""
import os
import sys

from ctensor import _C


class _Bar:
    """progress=True: a tqdm bar in bytes if tqdm can be imported, else a line on
    stderr rewritten at each whole percent."""

    def __init__(self, file):
        self.desc = os.path.basename(os.fsdecode(file))
        self.bar = None
        self.percent = -1
        try:
            from tqdm import tqdm
        except ImportError:
            tqdm = None
        self.tqdm = tqdm

    def __call__(self, done, total):
        if self.tqdm is not None:
            if self.bar is None:
                self.bar = self.tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=self.desc)
            self.bar.update(done - self.bar.n)
            return
        percent = 100 * done // total
        if percent != self.percent:
            self.percent = percent
            sys.stderr.write(f"\r{self.desc}: {done / 2**20:.0f} of {total / 2**20:.0f} MiB ({percent}%)")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    def close(self):
        if self.bar is not None:
            self.bar.close()
        elif 0 <= self.percent < 100:  # cancelled: end the line
            sys.stderr.write("\n")


def _reporting(loader, file, progress, call):
    """Runs call(fn) with the callable progress stands for, closing a bar after."""
    if progress is None or progress is False:
        return call(None)
    if progress is True:
        bar = _Bar(file)
        try:
            return call(bar)
        finally:
            bar.close()
    if not callable(progress):
        raise TypeError(f"{loader}(): progress must be a bool, a callable or None, not {type(progress).__name__}")
    return call(progress)


def load(file, mmap_mode=None, *, progress=None, progress_min_bytes=0):
    """A .npy file as a tensor, as np.load: read into memory (mmap_mode None),
    mapped read-only ('r') or copy-on-write ('c'). While a read into memory of
    at least progress_min_bytes goes on, progress=True shows a bar (tqdm if
    installed, else a line on stderr) and a callable gets (done, total) bytes;
    an exception it raises (Ctrl-C too) cancels the load and propagates. Mapped
    loads read nothing up front and never report."""
    return _reporting("load", file, progress, lambda fn: _C.load(
        file, mmap_mode, progress=fn, progress_min_bytes=progress_min_bytes))


def load_file(filename, device="cpu", *, progress=None, progress_min_bytes=0):
    """Every tensor of a safetensors file, by name: mapped copy-on-write, as
    safetensors.torch.load_file; with progress (as load's) the data is read
    into memory instead, reporting as it goes."""
    return _reporting("load_file", filename, progress, lambda fn: _C.load_file(
        filename, device, progress=fn, progress_min_bytes=progress_min_bytes))
