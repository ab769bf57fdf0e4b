# The workload image. BASE is an image with Node chosen by runner/docker/images/base-image-choice.js: the official
# node:<major>-bookworm-slim, an image the person named, or the offline base built here. Nothing here
# may pull or download: the engine may have no registry. node_modules is installed on the host (where
# the npm registry is reachable); prepare-native.js then makes its native addons those of this platform.
ARG BASE
FROM ${BASE}
LABEL node-threads-lab.project=node-threads-lab
COPY images/workload/ /app/
WORKDIR /app
RUN ["node", "/app/prepare-native.js"]
USER 1000:1000
ENTRYPOINT ["node", "/app/run.js"]
