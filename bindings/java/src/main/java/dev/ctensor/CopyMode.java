package dev.ctensor;

/** The copy modes of {@link Tensor#to} (torch.asarray's copy=None/True/False). */
public enum CopyMode {
    /** Share when the dtype matches, else copy. */
    IF_NEEDED(Native.TENSOR_COPY_IF_NEEDED),
    /** Always copy. */
    ALWAYS(Native.TENSOR_COPY_ALWAYS),
    /** Never copy: {@link CopyException} when a copy is needed. */
    NEVER(Native.TENSOR_COPY_NEVER);

    private final int code;

    CopyMode(int code) {
        this.code = code;
    }

    /** @return the C value */
    public int code() {
        return code;
    }
}
