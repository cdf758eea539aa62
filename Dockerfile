# Image of the lineage service for docker-compose (Neo4j runs in its own container there).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
COPY cypher ./cypher
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=5000
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY cypher ./cypher
EXPOSE 5000
USER node
# The Node flags of `npm start` (package.json; docs/operations.md#memory).
CMD ["node", "--max-semi-space-size=32", "dist/src/server.js"]
