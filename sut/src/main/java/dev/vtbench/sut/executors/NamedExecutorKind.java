package dev.vtbench.sut.executors;

/**
 * The name and default thread-name prefix every {@link ExecutorKind} carries; a kind extends this
 * and implements only {@link #build} (and {@link #validate} if it reads settings).
 */
abstract class NamedExecutorKind implements ExecutorKind {

    private final String name;
    private final String defaultThreadNamePrefix;

    /**
     * @param name                    the value of {@code bench.executor.kind}
     * @param defaultThreadNamePrefix given where the kind is registered ({@link ExecutorKinds})
     */
    NamedExecutorKind(String name, String defaultThreadNamePrefix) {
        this.name = name;
        this.defaultThreadNamePrefix = defaultThreadNamePrefix;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String defaultThreadNamePrefix() {
        return defaultThreadNamePrefix;
    }
}
