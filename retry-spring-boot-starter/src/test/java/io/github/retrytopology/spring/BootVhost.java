package io.github.retrytopology.spring;

import io.github.retrytopology.runtime.testing.TestVhost;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link TestVhost} for a {@code @SpringBootTest} class. Declared with {@code @ExtendWith} before
 * {@code @SpringBootTest}, it is created before Spring's extension loads the application and deleted after Spring
 * closes it ({@code @DirtiesContext}), so that the application's consumers never see their virtual host vanish.
 */
final class BootVhost implements BeforeAllCallback, AfterAllCallback {

    private static final Map<Class<?>, TestVhost> vhosts = new ConcurrentHashMap<>();

    /** The virtual host of a test class, once its tests have begun. */
    static TestVhost of(Class<?> testClass) {
        TestVhost vhost = vhosts.get(testClass);
        if (vhost == null) {
            throw new IllegalStateException(testClass.getName() + " is not annotated @ExtendWith(BootVhost.class) "
                    + "before @SpringBootTest");
        }
        return vhost;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        TestVhost vhost = new TestVhost();
        vhost.beforeAll(context);
        vhosts.put(context.getRequiredTestClass(), vhost);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        TestVhost vhost = vhosts.remove(context.getRequiredTestClass());
        if (vhost != null) {
            vhost.afterAll(context);
        }
    }
}
