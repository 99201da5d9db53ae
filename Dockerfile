# wikicheck: the HTTP API (`wikicheck serve`) and the CLI in one image.
#
# CPU image (default):
#   docker build -t wikicheck:cpu .
#   docker run --rm -p 127.0.0.1:8080:8080 -v "$PWD/wikicheck-index:/data/index" wikicheck:cpu
#
# GPU variant: the same file with the CUDA build of torch (its wheels bundle the CUDA runtime;
# the host needs an NVIDIA driver and the NVIDIA Container Toolkit):
#   docker build --build-arg TORCH_INDEX=https://download.pytorch.org/whl/cu128 -t wikicheck:gpu .
#   docker run --rm --gpus all -p 127.0.0.1:8080:8080 -v "$PWD/wikicheck-index:/data/index" \
#       wikicheck:gpu wikicheck serve --host 0.0.0.0 --index-dir /data/index --model owner/nli-model
# The verifier then runs on the GPU under bf16/fp16 autocast (docs/how-to/serve.md).

FROM python:3.11-slim

ARG TORCH_VERSION=2.13.0
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    WIKICHECK_NO_PROGRESS=1

# torch first, from the CPU (or --build-arg CUDA) index: a plain `pip install torch` would pull
# the multi-GB CUDA build into a CPU image. Its own layer, so code changes do not reinstall it.
RUN pip install "torch==${TORCH_VERSION}" --index-url "${TORCH_INDEX}"

WORKDIR /app
# The repository layout is kept (editable install): es_mappings/, kibana/ and the shipped
# verifier in wikicheck/verifier/models/ are read from next to the code.
COPY pyproject.toml README.md constraints.txt ./
COPY wikicheck ./wikicheck
COPY es_mappings ./es_mappings
COPY kibana ./kibana
COPY samples ./samples
# the versions the suite passed with (constraints.txt), as `make setup` installs them
RUN pip install -c constraints.txt -e . \
    && useradd --create-home --uid 10001 wikicheck \
    && mkdir -p /data/index && chown wikicheck /data/index

USER wikicheck
VOLUME ["/data/index"]
EXPOSE 8080

# 200 only once the index and models are loaded (503 while loading).
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/health', timeout=4).status != 200)"

# Embedded index at /data/index by default; with Elasticsearch pass --es URL (or set
# WIKICHECK_ES_URL, as docker-compose.yml does).
CMD ["wikicheck", "serve", "--host", "0.0.0.0", "--port", "8080", "--index-dir", "/data/index", "--retry-load", "10"]
