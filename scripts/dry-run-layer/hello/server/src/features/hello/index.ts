import { authenticate, defineFeature, jobDispatcher, type JobDeps, User } from '../../kernel/index.js'

const jobs = ({ mailer }: JobDeps) => ({
  /** Mails the user a greeting. */
  async 'hello:greet'({ userId }: { userId: number }) {
    const user = await User.findByPk(userId)
    if (user) await mailer.send({ to: user.email, subject: 'Hello', text: 'Hello from the hello layer.', html: '<p>Hello from the hello layer.</p>' })
  },
})
const dispatch = jobDispatcher(jobs)

/** A toy layer for scripts/dry-run-layer.ts: a route, a job and a way to sign in, each at base's extension point. */
export const feature = defineFeature({
  name: 'hello',
  routes: {
    api(router, ctx) {
      router.get('/hello', (_req, res) => {
        res.json({ message: 'Hello' })
      })
      router.post('/hello', authenticate(ctx), async (req, res) => {
        await dispatch(ctx.queue, 'hello:greet', { userId: req.auth!.id })
        res.status(202).json({ message: 'A greeting is on its way.' })
      })
    },
  },
  jobs,
  // A toy: every account has it, so the core counts one more way in for each.
  signInMethods: [{ name: 'hello', count: async () => 1 }],
})
