// A first program with ctensor's Java binding (run as in bindings/java/README.md):
// wraps Java memory, views it, computes, and reads the result without copying.
import dev.ctensor.BoundsException;
import dev.ctensor.CTensorException;
import dev.ctensor.DType;
import dev.ctensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

public class FirstProgram {
    public static void main(String[] args) throws CTensorException {
        MemorySegment buf = Arena.ofAuto().allocateFrom(JAVA_FLOAT, 1, 2, 3, 4, 5, 6);
        try (Tensor flat = Tensor.wrap(buf, DType.FLOAT32, false);   // shares buf
             Tensor m = flat.view(2, 3);
             Tensor t = m.transpose(0, 1);                           // a view: sizes [3, 2], strides [1, 3]
             Tensor c = t.contiguous();                              // a copy, since t is not contiguous
             Tensor s = m.sum(false, 1)) {                           // row sums, computed by ctensor
            System.out.println(Arrays.toString(t.shape()) + " " + Arrays.toString(t.stride()));
            System.out.println(Arrays.toString(c.data().toArray(JAVA_FLOAT)));  // the tensor's memory
            System.out.println(Arrays.toString(s.toDoubleArray()));
            try {
                m.select(1, 5);
            } catch (BoundsException e) {
                System.out.println(e.status().cName() + ": " + e.getMessage());
            }
        }
    }
}
