package dev.vtbench.sut.scenarios.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.util.function.Supplier;

/**
 * Runs a call inside the static initialiser ({@code <clinit>}) of a fresh hidden class, so that a
 * virtual thread blocking in that call pins its carrier on JDK 25 (JEP 491 unpinned
 * {@code synchronized} and {@code Object.wait}, not class initialisation). Every call defines a new
 * hidden class from the bytes of {@link BlockingInitializer}, so every call runs an initialiser
 * (a normal class is initialised once). JFR's {@code pinnedReason} for it reads
 * "VM call to dev.vtbench.sut.scenarios.llm.BlockingInitializer/0x….&lt;clinit&gt; on stack" (HotSpot
 * {@code JavaThread::post_vthread_pinned_event}; seen on Temurin 25.0.3). Hidden classes are not
 * strongly held, so they are unloaded once unreachable.
 */
final class ClassInitPinning {

    private static final ThreadLocal<Supplier<?>> TASK = new ThreadLocal<>();
    private static final ThreadLocal<Object> RESULT = new ThreadLocal<>();
    private static final ThreadLocal<RuntimeException> FAILURE = new ThreadLocal<>();
    private static final byte[] TEMPLATE = templateBytes();

    private ClassInitPinning() {
    }

    private static byte[] templateBytes() {
        try (InputStream in = ClassInitPinning.class.getResourceAsStream("BlockingInitializer.class")) {
            if (in == null) {
                throw new IllegalStateException("BlockingInitializer.class not found next to ClassInitPinning");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs {@code call} on the current thread inside a fresh class initialiser and returns its value.
     * A RuntimeException thrown by {@code call} is rethrown as is; anything else thrown becomes an
     * IllegalStateException.
     */
    @SuppressWarnings("unchecked")
    static <T> T callInStaticInitializer(Supplier<T> call) {
        TASK.set(call);
        try {
            MethodHandles.lookup().defineHiddenClass(TEMPLATE, true);
            RuntimeException failure = FAILURE.get();
            if (failure != null) {
                throw failure;
            }
            return (T) RESULT.get();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot define the hidden class", e);
        } finally {
            TASK.remove();
            RESULT.remove();
            FAILURE.remove();
        }
    }

    /** Called by {@link BlockingInitializer}'s {@code <clinit>}; never throws (a throwing initialiser would be wrapped). */
    static void runFromInitializer() {
        Supplier<?> task = TASK.get();
        if (task == null) {
            return; // the template class itself, loaded normally: nothing to run
        }
        try {
            RESULT.set(task.get());
        } catch (RuntimeException e) {
            FAILURE.set(e);
        } catch (Error e) {
            FAILURE.set(new IllegalStateException(e.toString(), e));
        }
    }
}
