/** Spring Boot auto-configuration: finds each spec's generated code and runs its consumers as a lifecycle bean. */
package io.github.retrytopology.spring;
