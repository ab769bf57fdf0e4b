# The workload image. BASE is a local image made by runner/docker/images.js (Debian minbase + one Node
# binary + user lab 1000:1000): no registry is reachable, so nothing here may pull or download.
# node_modules is installed on the host beforehand, for the same reason.
ARG BASE
FROM ${BASE}
LABEL node-threads-lab.project=node-threads-lab
COPY images/workload/ /app/
WORKDIR /app
USER 1000:1000
ENTRYPOINT ["node", "/app/run.js"]
